-- The advisory lock key serialising the claims of a connection while a lowered cap drains (calls
-- still hold slots at or above it: beacon_take_slot), so that each counts the slots held with the
-- others' taken ones committed. One home, like the other lock keys.
CREATE OR REPLACE FUNCTION public.beacon_slot_drain_key(connection_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('slot-drain:' || connection_id, 0)
$function$;
