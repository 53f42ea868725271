-- Attempts: an open one was deleted (with its capture): no longer running. When the capture
-- went in the same transaction its provider cannot be named any more (this runs at commit), and
-- the provider's in-flight gauge keeps counting it; only deleting a workspace with calls in
-- flight does that.
CREATE OR REPLACE FUNCTION public.beacon_metrics_attempt_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(OLD."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(provider, -1, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END
$function$;
