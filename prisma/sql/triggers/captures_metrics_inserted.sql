-- A check's captures arrive in one INSERT: counted once per statement. Every other trigger is
-- deferred to the commit (constraint triggers, INITIALLY DEFERRED), so that the metric rows are
-- the last locks a transition takes, after its capture, attempt, check and budget rows, held for
-- the commit only; and every transaction takes them in the order of its writes, capture first.
DROP TRIGGER IF EXISTS captures_metrics_inserted ON public.captures;
CREATE TRIGGER captures_metrics_inserted
AFTER INSERT ON public.captures
REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT
EXECUTE FUNCTION beacon_metrics_captures_inserted();
