-- Attempts: started (by the claim; the demo seed inserts finished ones).
DROP TRIGGER IF EXISTS attempts_metrics_started ON public.attempts;
CREATE CONSTRAINT TRIGGER attempts_metrics_started
AFTER INSERT ON public.attempts DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW
EXECUTE FUNCTION beacon_metrics_attempt_started();
