-- A delivery that ended (delivered, failed) or was put back to wait for a retry (still pending,
-- with a new next attempt) counts once under its channel's kind.
DROP TRIGGER IF EXISTS alert_deliveries_count ON public.alert_deliveries;
CREATE TRIGGER alert_deliveries_count
AFTER UPDATE OF status, "nextAttemptAt" ON public.alert_deliveries
FOR EACH ROW
EXECUTE FUNCTION beacon_count_alert_delivery();
