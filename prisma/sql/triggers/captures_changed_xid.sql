-- Fires beacon_capture_changed(): functions/beacon_capture_changed.sql says why.
DROP TRIGGER IF EXISTS captures_changed_xid ON public.captures;
CREATE TRIGGER captures_changed_xid
BEFORE UPDATE ON public.captures
FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old."attemptCount" IS DISTINCT FROM new."attemptCount") OR (old."latencyMs" IS DISTINCT FROM new."latencyMs") OR (old."costMicros" IS DISTINCT FROM new."costMicros") OR (old."lastError" IS DISTINCT FROM new."lastError") OR (old."waitingFor" IS DISTINCT FROM new."waitingFor") OR (old."promptId" IS DISTINCT FROM new."promptId") OR (old."providerConfigId" IS DISTINCT FROM new."providerConfigId") OR (old.sample IS DISTINCT FROM new.sample) OR (old."checkId" IS DISTINCT FROM new."checkId") OR (old."analyzedAt" IS DISTINCT FROM new."analyzedAt")))
EXECUTE FUNCTION beacon_capture_changed();
