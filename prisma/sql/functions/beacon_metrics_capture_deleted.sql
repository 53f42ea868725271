-- Captures: an unfinished one was deleted (its workspace was): the gauges let go of it.
CREATE OR REPLACE FUNCTION public.beacon_metrics_capture_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    0, 0,
    -(OLD.status = 'queued')::int,
    -(OLD.status = 'retry_wait')::int,
    -(OLD.status = 'postponed')::int,
    -(OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    -(OLD.status = 'running')::int);
  RETURN NULL;
END
$function$;
