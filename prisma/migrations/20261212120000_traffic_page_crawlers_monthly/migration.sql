-- traffic_page_crawlers_monthly: crawls per (workspace, page, month's first day, crawler), all
-- verdicts together. The funnel shows each listed page's crawls by crawler in the range: whole
-- months read here, the edge days from traffic_daily (rollupSpans without weeks), instead of a
-- row per day, crawler and verdict of traffic_daily for the whole range (docs/traffic.md). Keyed
-- per page first, as the funnel probes it for the rows it shows. Written with the other rollups
-- (lib/traffic/store.ts rollupsOfGroups); no foreign key (the import locks the workspace's row
-- instead), its rows go with their workspace in beacon_workspace_traffic_deleted.
CREATE TABLE "traffic_page_crawlers_monthly" (
    "workspaceId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "crawler" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_page_crawlers_monthly_pkey" PRIMARY KEY ("workspaceId", "domain", "path", "month", "crawler")
);

INSERT INTO "traffic_page_crawlers_monthly" ("workspaceId", domain, path, month, crawler, hits)
SELECT "workspaceId", domain, path, date_trunc('month', day)::date, crawler, sum(hits)
FROM "traffic_daily" GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5;
