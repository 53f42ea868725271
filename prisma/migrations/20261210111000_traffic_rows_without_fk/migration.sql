-- Crawler hits and their rollups lose their foreign keys to workspaces: the per-row key check
-- was a third of PostgreSQL's CPU per imported line (bench --traffic, 27.6 -> 18.3 µs). storeHits
-- locks the workspace row once per batch instead, and the workspaces_traffic_deleted trigger
-- (prisma/sql) deletes a deleted workspace's rows as the cascade did.
ALTER TABLE "traffic_hits" DROP CONSTRAINT "traffic_hits_workspaceId_fkey";
ALTER TABLE "traffic_daily" DROP CONSTRAINT "traffic_daily_workspaceId_fkey";
ALTER TABLE "traffic_crawls_daily" DROP CONSTRAINT "traffic_crawls_daily_workspaceId_fkey";
ALTER TABLE "traffic_pages_daily" DROP CONSTRAINT "traffic_pages_daily_workspaceId_fkey";
ALTER TABLE "traffic_pages_weekly" DROP CONSTRAINT "traffic_pages_weekly_workspaceId_fkey";
