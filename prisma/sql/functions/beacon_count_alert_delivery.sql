-- The metric counts 'unknown' as an outcome too (beacon_alert_deliveries_total{outcome="unknown"});
-- 'sending' is not an outcome: a claim moves pending -> sending and counts nothing, and the
-- retry's sending -> pending with a new "nextAttemptAt" counts as retried, as before.
CREATE OR REPLACE FUNCTION public.beacon_count_alert_delivery()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  counted TEXT;
BEGIN
  IF NEW.status <> OLD.status AND NEW.status::text IN ('delivered', 'failed', 'unknown') THEN
    counted := NEW.status::text;
  ELSIF NEW.status = 'pending' AND NEW."nextAttemptAt" IS NOT NULL AND NEW."nextAttemptAt" IS DISTINCT FROM OLD."nextAttemptAt" THEN
    counted := 'retried';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO metric_alert_delivery_counts ("channelKind", outcome, count)
  SELECT c.kind, counted, 1 FROM alert_channels c WHERE c.id = NEW."channelId"
  ON CONFLICT ("channelKind", outcome) DO UPDATE SET count = metric_alert_delivery_counts.count + 1;
  RETURN NULL;
END $function$;
