-- Generated from lib/metrics/metric-sql.ts by `npm run sql:generate`; do not edit.
-- Adds to the ring slot of a minute (timestamps are UTC, as every timestamp column here). A slot
-- that holds an older minute starts again from this one; a minute older than the one its slot
-- holds left every window long ago and is dropped, and so is anything outside [now - 2 h,
-- now + 5 min] (old history, clocks far ahead), so a slot never holds a minute a scrape reads
-- while a newer one waits.
CREATE OR REPLACE FUNCTION public.beacon_metric_add_minute(bucket timestamp without time zone, d_attempts bigint, d_retries bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_attempt_minutes" AS w ("slot", "shard", "startsAt", "attempts", "retries")
  SELECT (floor(extract(epoch FROM bucket) / 60)::bigint % 128)::smallint, beacon_metric_shard(), bucket, d_attempts, d_retries
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '2 hours' AND (now() AT TIME ZONE 'UTC') + interval '5 minutes'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "attempts" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."attempts" + EXCLUDED."attempts" ELSE EXCLUDED."attempts" END,
    "retries" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."retries" + EXCLUDED."retries" ELSE EXCLUDED."retries" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$function$;
