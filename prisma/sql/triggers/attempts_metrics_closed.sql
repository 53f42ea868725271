-- Attempts: the outcome (or the reason) was set.
DROP TRIGGER IF EXISTS attempts_metrics_closed ON public.attempts;
CREATE CONSTRAINT TRIGGER attempts_metrics_closed
AFTER UPDATE OF outcome, reason ON public.attempts DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (((old.outcome IS DISTINCT FROM new.outcome) OR (old.reason IS DISTINCT FROM new.reason)))
EXECUTE FUNCTION beacon_metrics_attempt_closed();
