-- Workspaces deleted: their crawler hits and traffic rollups go with them. These tables have no
-- foreign key to workspaces: a row-by-row key check cost the log import a third of PostgreSQL's
-- time per line (bench --traffic); storeHits instead locks the workspace's row once per batch
-- (FOR KEY SHARE), so a deletion waits for the batch and then removes its rows here.
CREATE OR REPLACE FUNCTION public.beacon_workspace_traffic_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM traffic_hits WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_crawls_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_daily WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_weekly WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  DELETE FROM traffic_pages_monthly WHERE "workspaceId" IN (SELECT id FROM old_workspaces);
  RETURN NULL;
END
$function$;
