-- The advisory lock key ordering a claim that found no free slot of a connection (taken
-- exclusively: lib/lifecycle/claim.ts) against releases of its slots (taken shared: beacon_succeed,
-- lib/lifecycle/transition.ts guardedUpdate). One home, so SQL and TypeScript take the same lock.
CREATE OR REPLACE FUNCTION public.beacon_slot_wait_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('slot-wait:' || connection_id, 0)
$function$;
