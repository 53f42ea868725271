-- Captures: inserted (once per statement: a check's captures come in one INSERT).
CREATE OR REPLACE FUNCTION public.beacon_metrics_captures_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM beacon_metric_add_captures(
    count(*),
    count(*) FILTER (WHERE status = 'succeeded'),
    count(*) FILTER (WHERE status = 'queued'),
    count(*) FILTER (WHERE status = 'retry_wait'),
    count(*) FILTER (WHERE status = 'postponed'),
    count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget'),
    count(*) FILTER (WHERE status = 'running'))
  FROM inserted HAVING count(*) > 0;
  PERFORM beacon_metric_add_hour(date_trunc('hour', "finishedAt"), count(*), sum("costMicros")::bigint)
  FROM inserted
  WHERE status = 'succeeded' AND "finishedAt" >= (now() AT TIME ZONE 'UTC') - interval '26 hours'
  GROUP BY date_trunc('hour', "finishedAt");
  RETURN NULL;
END
$function$;
