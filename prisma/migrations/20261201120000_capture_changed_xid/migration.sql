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
-- GridCell: keep the two lists together), so the streaming of an answer, saved every second,
-- sends nothing; it writes nothing but the row it fires on.
ALTER TABLE "captures" ADD COLUMN "changedXid" xid8 NOT NULL DEFAULT pg_current_xact_id();

CREATE OR REPLACE FUNCTION beacon_capture_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."changedXid" := pg_current_xact_id();
  RETURN NEW;
END
$$;

CREATE TRIGGER "captures_changed_xid"
BEFORE UPDATE ON "captures"
FOR EACH ROW WHEN (
  OLD."status" IS DISTINCT FROM NEW."status"
  OR OLD."attemptCount" IS DISTINCT FROM NEW."attemptCount"
  OR OLD."latencyMs" IS DISTINCT FROM NEW."latencyMs"
  OR OLD."costMicros" IS DISTINCT FROM NEW."costMicros"
  OR OLD."lastError" IS DISTINCT FROM NEW."lastError"
  OR OLD."waitingFor" IS DISTINCT FROM NEW."waitingFor"
  OR OLD."promptId" IS DISTINCT FROM NEW."promptId"
  OR OLD."providerConfigId" IS DISTINCT FROM NEW."providerConfigId"
  OR OLD."sample" IS DISTINCT FROM NEW."sample"
  OR OLD."checkId" IS DISTINCT FROM NEW."checkId"
)
EXECUTE FUNCTION beacon_capture_changed();
