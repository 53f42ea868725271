-- Attempts: an open one was deleted (with its capture): no longer running. When the capture
-- went in the same transaction its provider cannot be named any more (this runs at commit), and
-- the provider's in-flight gauge keeps counting it; only deleting a workspace with calls in
-- flight does that.
DROP TRIGGER IF EXISTS attempts_metrics_deleted ON public.attempts;
CREATE CONSTRAINT TRIGGER attempts_metrics_deleted
AFTER DELETE ON public.attempts DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN ((old.outcome IS NULL))
EXECUTE FUNCTION beacon_metrics_attempt_deleted();
