-- Rollups of traffic_daily for the Traffic page (issue 21 item 5, docs/traffic.md "Rollups"),
-- written by the same statement as traffic_daily (lib/traffic/store.ts storeHits) and, like it,
-- kept when the retention deletes raw hits. At 100M hits traffic_daily has tens of millions of
-- rows (a row per day, page, crawler and verification); each chart reads the narrowest of these:
--
-- traffic_crawls_daily: per (workspace, day, domain, crawler, verification), no path: the crawls chart.
CREATE TABLE "traffic_crawls_daily" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "verification" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_crawls_daily_pkey" PRIMARY KEY ("workspaceId", "day", "domain", "crawler", "verification")
);
ALTER TABLE "traffic_crawls_daily" ADD CONSTRAINT "traffic_crawls_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- traffic_pages_daily: per (workspace, day, domain, path), all crawlers together: the days of a
-- range's partial weeks.
CREATE TABLE "traffic_pages_daily" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_pages_daily_pkey" PRIMARY KEY ("workspaceId", "day", "domain", "path")
);
ALTER TABLE "traffic_pages_daily" ADD CONSTRAINT "traffic_pages_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- traffic_pages_weekly: per (workspace, ISO week's Monday, domain, path): the weeks of a range
-- (top pages, the funnel's crawled side).
CREATE TABLE "traffic_pages_weekly" (
    "workspaceId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_pages_weekly_pkey" PRIMARY KEY ("workspaceId", "week", "domain", "path")
);
ALTER TABLE "traffic_pages_weekly" ADD CONSTRAINT "traffic_pages_weekly_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "traffic_crawls_daily" ("workspaceId", day, domain, crawler, verification, hits, errors)
SELECT "workspaceId", day, domain, crawler, verification, sum(hits), sum(errors) FROM "traffic_daily" GROUP BY 1, 2, 3, 4, 5;
INSERT INTO "traffic_pages_daily" ("workspaceId", day, domain, path, hits, errors)
SELECT "workspaceId", day, domain, path, sum(hits), sum(errors) FROM "traffic_daily" GROUP BY 1, 2, 3, 4;
INSERT INTO "traffic_pages_weekly" ("workspaceId", week, domain, path, hits, errors)
SELECT "workspaceId", date_trunc('week', day)::date, domain, path, sum(hits), sum(errors) FROM "traffic_daily" GROUP BY 1, 2, 3, 4;

-- Nothing reads the raw hits per workspace and day (the pages read the rollups, the retention the
-- BRIN day index): the B-tree cost the import one more index insert per hit.
DROP INDEX "traffic_hits_workspaceId_day_idx";

-- traffic_daily is read per page only now (the funnel's and top pages' rows shown: last crawl,
-- crawlers; the charts read the rollups above), so its key leads with the page and the separate
-- per-page index goes: one B-tree per rollup row instead of two.
ALTER TABLE "traffic_daily" DROP CONSTRAINT "traffic_daily_pkey",
  ADD CONSTRAINT "traffic_daily_pkey" PRIMARY KEY ("workspaceId", "domain", "path", "day", "crawler", "verification");
DROP INDEX "traffic_daily_workspaceId_domain_path_day_idx";
