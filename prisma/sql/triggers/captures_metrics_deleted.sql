-- Captures: an unfinished one was deleted (its workspace was): the gauges let go of it.
DROP TRIGGER IF EXISTS captures_metrics_deleted ON public.captures;
CREATE CONSTRAINT TRIGGER captures_metrics_deleted
AFTER DELETE ON public.captures DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN ((old.status = ANY (beacon_unfinished_statuses())))
EXECUTE FUNCTION beacon_metrics_capture_deleted();
