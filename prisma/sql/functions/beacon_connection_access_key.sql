-- The advisory lock key ordering a claim's read of who may call a connection (taken shared:
-- beacon_claim, lib/lifecycle/claim.ts accessRefusal) against an operator's change of it (taken
-- exclusively first: lockConnectionAccess). One home, so SQL and TypeScript take the same lock.
CREATE OR REPLACE FUNCTION public.beacon_connection_access_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('connection-access:' || connection_id, 0)
$function$;
