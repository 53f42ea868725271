-- The provider label of an attempt: its capture's provider name (as the metrics always showed).
CREATE OR REPLACE FUNCTION public.beacon_metric_provider_of(capture_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT pc."name" FROM "captures" c JOIN "provider_configs" pc ON pc."id" = c."providerConfigId" WHERE c."id" = capture_id
$function$;
