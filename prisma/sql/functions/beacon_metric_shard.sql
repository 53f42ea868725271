-- The shard this transaction writes to.
CREATE OR REPLACE FUNCTION public.beacon_metric_shard()
 RETURNS smallint
 LANGUAGE sql
AS $function$
  SELECT (txid_current() % 16)::smallint
$function$;
