-- Generated from lib/metrics/metric-sql.ts by `npm run sql:generate`; do not edit.
-- Attempts: started (by the claim; the demo seed inserts finished ones).
CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_started()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  PERFORM beacon_metric_add_minute(date_trunc('minute', NEW."startedAt"), 1, (NEW.number > 1)::int);
  RETURN NULL;
END
$function$;
