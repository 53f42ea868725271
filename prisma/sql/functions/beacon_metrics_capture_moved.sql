-- Captures: a status (or what a postponed capture waits for) changed.
CREATE OR REPLACE FUNCTION public.beacon_metrics_capture_moved()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    0,
    (NEW.status = 'succeeded')::int - (OLD.status = 'succeeded')::int,
    (NEW.status = 'queued')::int - (OLD.status = 'queued')::int,
    (NEW.status = 'retry_wait')::int - (OLD.status = 'retry_wait')::int,
    (NEW.status = 'postponed')::int - (OLD.status = 'postponed')::int,
    (NEW.status = 'postponed' AND NEW."waitingFor" IS NOT DISTINCT FROM 'budget')::int
      - (OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    (NEW.status = 'running')::int - (OLD.status = 'running')::int);
  IF NEW.status = 'succeeded' AND OLD.status <> 'succeeded' THEN
    PERFORM beacon_metric_add_hour(date_trunc('hour', NEW."finishedAt"), 1, NEW."costMicros");
  END IF;
  RETURN NULL;
END
$function$;
