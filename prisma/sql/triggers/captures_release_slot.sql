-- Whatever moves a capture out of running gives its slot back, in the same transaction.
DROP TRIGGER IF EXISTS captures_release_slot ON public.captures;
CREATE TRIGGER captures_release_slot
AFTER UPDATE OF status ON public.captures
FOR EACH ROW WHEN (((old.status = 'running'::"CaptureStatus") AND (new.status <> 'running'::"CaptureStatus")))
EXECUTE FUNCTION beacon_release_slot();
