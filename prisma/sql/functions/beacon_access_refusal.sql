-- Why the workspace may not call the connection with the model now, or NULL when it may: the
-- connection enabled, granted to the workspace (a grant row; a revoke deletes it) or to every
-- workspace, the model on its allowlist. The one definition the claim, the admin retry
-- (lib/lifecycle/admin.ts retryRefusals), the lists of who may use what (grantedConnections,
-- listProviderConfigs) and new work (lib/connections/connections.ts assertUsable:
-- a check, a provider, the setup wizard) use; its sentences are the capture's error and the retry's refusal.
CREATE OR REPLACE FUNCTION public.beacon_access_refusal(connection_id uuid, workspace_id uuid, model text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN pc.id IS NULL THEN 'The connection of this capture no longer exists.'
    WHEN NOT pc.enabled THEN format('The operator disabled %s.', pc.name)
    WHEN NOT pc."grantedToAll" AND NOT EXISTS (
        SELECT 1 FROM connection_grants g WHERE g."connectionId" = pc.id AND g."workspaceId" = beacon_access_refusal.workspace_id)
      THEN format('The operator revoked this workspace''s access to %s.', pc.name)
    WHEN NOT (beacon_access_refusal.model = ANY(pc.models)) THEN format('The model "%s" is no longer allowed on %s.', beacon_access_refusal.model, pc.name)
  END
  FROM (SELECT 1) one LEFT JOIN provider_connections pc ON pc.id = beacon_access_refusal.connection_id
$function$;
