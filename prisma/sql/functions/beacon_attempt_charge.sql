-- What an attempt is charged: its cost, at most the worst case its claim reserved before the call
-- (DESIGN.md "Money": charged never exceeds the budget, nor a grant's limit, both of which admitted
-- the reservation). A cost above it (an unknown outcome estimated at prices an operator raised
-- during the call; a provider that answered past the output cap) is the attempt's
-- "costOverrunMicros", not charged. Used by beacon_close_attempt, which closes every attempt, and
-- by beacon_succeed for the capture's own cost; the setup wizard's call is charged by it too
-- (lib/setup/run.ts).
CREATE OR REPLACE FUNCTION public.beacon_attempt_charge(cost bigint, reserved bigint)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN reserved IS NULL THEN cost ELSE least(cost, reserved) END
$function$;
