-- Workspaces deleted: their traffic rows go (beacon_workspace_traffic_deleted), once per statement.
DROP TRIGGER IF EXISTS workspaces_traffic_deleted ON public.workspaces;
CREATE TRIGGER workspaces_traffic_deleted
AFTER DELETE ON public.workspaces
REFERENCING OLD TABLE AS old_workspaces
FOR EACH STATEMENT
EXECUTE FUNCTION beacon_workspace_traffic_deleted();
