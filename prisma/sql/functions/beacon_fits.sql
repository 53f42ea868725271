-- The money rule, its one home: an addition of `amount` fits a monthly cap when what is charged,
-- plus what is already in use (holds, or calls in flight), plus `amount` stays within the cap; no
-- cap (NULL) always fits. beacon_budget_add and beacon_grant_add apply it in their guarded
-- upserts (to the admission row's latest version plus the other shards), beacon_call_would_fit
-- read only; it reads nothing itself, so where it is called decides what is locked.
CREATE OR REPLACE FUNCTION public.beacon_fits(charged bigint, in_use bigint, amount bigint, cap bigint)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT cap IS NULL OR charged + in_use + amount <= cap
$function$;
