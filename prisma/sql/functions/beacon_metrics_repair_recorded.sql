-- Events: a repair was recorded (beacon_lifecycle_repairs_total{kind}). Repairs are rare, so
-- one row per kind.
CREATE OR REPLACE FUNCTION public.beacon_metrics_repair_recorded()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "metric_repair_counts" AS m ("kind", "count") VALUES (coalesce(NEW.data->>'kind', 'unknown'), 1)
  ON CONFLICT ("kind") DO UPDATE SET "count" = m."count" + 1;
  RETURN NULL;
END
$function$;
