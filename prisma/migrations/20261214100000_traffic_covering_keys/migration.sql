-- The funnel's rows shown (issue 21: its full list 162-201 ms p95 at 100M hits, over the goal of
-- 150) read each page's crawls by crawler and visits by assistant over the range: 1,500 rows of
-- traffic_daily and 700 of traffic_visits_daily a page at 100M hits, each a heap fetch on a page
-- of its own (the rows of a day are written together, a page's days apart). With the summed
-- column in the per-page key, these are index-only scans over a few adjacent index pages. An
-- import's upserts that add to an existing row now write a new key entry (the update is no longer
-- HOT); on the import bench that cost stayed within the runs' noise (docs/benchmarks.md).
-- Rebuilding the key locks the table against writes while it builds (about a minute for 23M rows).
ALTER TABLE "traffic_daily" DROP CONSTRAINT "traffic_daily_pkey",
  ADD CONSTRAINT "traffic_daily_pkey" PRIMARY KEY ("workspaceId", "domain", "path", "day", "crawler", "verification") INCLUDE ("hits");

DROP INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx";
CREATE INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx" ON "traffic_visits_daily"("workspaceId", "domain", "path", "day") INCLUDE ("assistant", "visits");
