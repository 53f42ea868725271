-- Generated from lib/metrics/metric-sql.ts by `npm run sql:generate`; do not edit.
-- The same for an hour: the ring holds 32, a window reads the last 25.
CREATE OR REPLACE FUNCTION public.beacon_metric_add_hour(bucket timestamp without time zone, d_accepted bigint, d_cost_micros bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_accepted_hours" AS w ("slot", "shard", "startsAt", "accepted", "costMicros")
  SELECT (floor(extract(epoch FROM bucket) / 3600)::bigint % 32)::smallint, beacon_metric_shard(), bucket, d_accepted, d_cost_micros
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '26 hours' AND (now() AT TIME ZONE 'UTC') + interval '1 hour'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "accepted" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."accepted" + EXCLUDED."accepted" ELSE EXCLUDED."accepted" END,
    "costMicros" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."costMicros" + EXCLUDED."costMicros" ELSE EXCLUDED."costMicros" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$function$;
