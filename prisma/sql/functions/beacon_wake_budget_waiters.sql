-- Captures waiting for budget in the workspace get their job now (transition.ts wakeBudgetWaiters
-- explains the shared lock).
CREATE OR REPLACE FUNCTION public.beacon_wake_budget_waiters(workspace_id uuid, wake_limit integer, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  waiting UUID[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(beacon_budget_wait_key(workspace_id));
  SELECT coalesce(array_agg(id), '{}') INTO waiting FROM (
    SELECT id FROM captures WHERE "workspaceId" = workspace_id AND status = 'postponed' AND "waitingFor" = 'budget'
    ORDER BY "nextAttemptAt", id LIMIT wake_limit) w;
  PERFORM beacon_enqueue_captures(waiting, 0, jobs);
  RETURN cardinality(waiting);
END $function$;
