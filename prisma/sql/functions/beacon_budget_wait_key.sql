-- The advisory lock key ordering a claim refused for budget (taken exclusively: lib/lifecycle/claim.ts)
-- against results and raises freeing money in the workspace (taken shared: beacon_wake_budget_waiters).
-- One home, so SQL and TypeScript take the same lock.
CREATE OR REPLACE FUNCTION public.beacon_budget_wait_key(workspace_id uuid)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT hashtextextended('budget-wait:' || workspace_id, 0)
$function$;
