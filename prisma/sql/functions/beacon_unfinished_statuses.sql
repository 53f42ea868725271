-- Generated from UNFINISHED_STATUSES in lib/captures/states.ts by `npm run sql:generate`; do not edit.
-- The capture statuses not finished: waiting or running.
CREATE OR REPLACE FUNCTION public.beacon_unfinished_statuses()
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT '{queued,retry_wait,postponed,running}'::"CaptureStatus"[]
$function$;
