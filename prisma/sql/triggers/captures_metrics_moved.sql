-- Captures: a status (or what a postponed capture waits for) changed.
DROP TRIGGER IF EXISTS captures_metrics_moved ON public.captures;
CREATE CONSTRAINT TRIGGER captures_metrics_moved
AFTER UPDATE OF status, "waitingFor" ON public.captures DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old."waitingFor" IS DISTINCT FROM new."waitingFor")))
EXECUTE FUNCTION beacon_metrics_capture_moved();
