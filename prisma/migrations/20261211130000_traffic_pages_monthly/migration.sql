-- traffic_pages_monthly: crawls per (workspace, month's first day, domain, path), all crawlers
-- together, beside the weekly and daily page rollups (docs/traffic.md "Rollups"). A range's
-- whole months are read here, its edges from the weeks and days (lib/analytics/traffic.ts
-- pageCrawls): 90 days of 10,000 pages read ~3 rows a page instead of ~13 weeks plus edge days.
-- Written by storeHits' statement like the other rollups; no foreign key (the workspace's row is
-- locked per batch instead), its rows go with their workspace in beacon_workspace_traffic_deleted.
CREATE TABLE "traffic_pages_monthly" (
    "workspaceId" UUID NOT NULL,
    "month" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_pages_monthly_pkey" PRIMARY KEY ("workspaceId", "month", "domain", "path")
);

INSERT INTO "traffic_pages_monthly" ("workspaceId", month, domain, path, hits, errors)
SELECT "workspaceId", date_trunc('month', day)::date, domain, path, sum(hits), sum(errors)
FROM "traffic_pages_daily" GROUP BY 1, 2, 3, 4 ORDER BY 2;
