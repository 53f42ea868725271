-- Progress by deltas (lib/checks/progress.ts): every capture row remembers the transaction that
-- last changed what the check page's grid shows of it. A poll reads its rows and
-- pg_current_snapshot() in one statement and hands the snapshot back as its version; the next
-- poll asks only for rows whose "changedXid" is not visible in that snapshot. Transaction ids,
-- unlike timestamps, say exactly which writes a snapshot saw: a transaction that had started
-- but not committed when a poll read is in the snapshot's in-progress list, so its rows come
-- with the next poll whenever it commits.
--
-- Inserts take the inserting transaction's id from the default. Updates take it from a BEFORE
-- trigger that only fires when a field the grid shows changes (lib/checks/progress-state.ts
-- GridCell: keep the two lists together; "analyzedAt" stands for the brand mention a cell shows,
-- which a re-analysis rewrites and stamps), so the streaming of an answer, saved every second,
-- sends nothing; it writes nothing but the row it fires on.
CREATE OR REPLACE FUNCTION public.beacon_capture_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW."changedXid" := pg_current_xact_id();
  RETURN NEW;
END
$function$;
