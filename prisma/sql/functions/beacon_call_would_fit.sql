-- The same rule read only: no call fits on a connection the workspace holds no grant of (and
-- that is not granted to every workspace).
CREATE OR REPLACE FUNCTION public.beacon_call_would_fit(workspace_id uuid, connection_id uuid, worst bigint)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce((
      SELECT beacon_fits(coalesce(sum(s."chargedMicros"), 0)::bigint, coalesce(sum(s."inFlightMicros"), 0)::bigint, worst, w."monthlyBudgetMicros")
      FROM workspaces w
      LEFT JOIN budget_periods s ON s."workspaceId" = w.id AND s."periodStart" = beacon_month()
      WHERE w.id = beacon_call_would_fit.workspace_id
      GROUP BY w."monthlyBudgetMicros"), true)
    AND coalesce((
      SELECT beacon_fits(coalesce(sum(s."chargedMicros"), 0)::bigint, coalesce(sum(s."inFlightMicros"), 0)::bigint, worst, g."monthlySpendLimitMicros")
      FROM connection_grants g
      LEFT JOIN grant_spend_periods s ON s."connectionId" = g."connectionId" AND s."workspaceId" = g."workspaceId"
        AND s."periodStart" = beacon_month()
      WHERE g."connectionId" = beacon_call_would_fit.connection_id AND g."workspaceId" = beacon_call_would_fit.workspace_id
      GROUP BY g."monthlySpendLimitMicros"),
      coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = beacon_call_would_fit.connection_id), false))
$function$;
