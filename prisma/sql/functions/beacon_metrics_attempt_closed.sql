-- Generated from lib/metrics/metric-sql.ts by `npm run sql:generate`; do not edit.
-- Attempts: the outcome (or the reason) was set.
CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_closed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int - (OLD.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int - (OLD.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int - (OLD.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int - (OLD.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int - (OLD.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int - (OLD.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  RETURN NULL;
END
$function$;
