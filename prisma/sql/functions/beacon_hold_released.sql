-- What an ended capture gives back of its budget hold (the expected cost its check or retry held
-- for admission; what it spent was charged by its attempts): the whole hold, to the month it was
-- taken in, or nothing when it held nothing or no month (a row from before holds had one). The one
-- rule of every path that ends a capture: beacon_succeed, beacon_claim's refusal, and
-- lib/lifecycle/transition.ts settleMoved (every other transition), which also wake the captures
-- waiting for budget when it gives something back.
CREATE OR REPLACE FUNCTION public.beacon_hold_released(hold bigint, period date)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN hold > 0 AND period IS NOT NULL THEN hold ELSE 0 END
$function$;
