-- AI crawler hits read from a site's own access logs (issue 21, docs/traffic.md).
--
-- traffic_hits: one row per request of a known crawler to one of the workspace's own domains:
-- the day and time, the host (lower case, without "www." and port), the path (no query), the
-- crawler's name (lib/traffic/crawlers.ts), whether its address is in the operator's published
-- ranges, and the status. No address, no user agent, nothing else about the client. Deleted
-- after BEACON_TRAFFIC_HIT_RETENTION_DAYS by the hourly retention.
CREATE TABLE "traffic_hits" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "verification" TEXT NOT NULL,
    "status" SMALLINT NOT NULL,

    CONSTRAINT "traffic_hits_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "traffic_hits_verification_check" CHECK ("verification" IN ('verified', 'unverified', 'unchecked'))
);
ALTER TABLE "traffic_hits" ADD CONSTRAINT "traffic_hits_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "traffic_hits_workspaceId_day_idx" ON "traffic_hits"("workspaceId", "day");
-- The retention deletes by day across workspaces.
CREATE INDEX "traffic_hits_day_idx" ON "traffic_hits"("day");

-- traffic_daily: hits per (workspace, day, domain, path, crawler, verification), and how many of
-- them the site answered with a 4xx or 5xx. Written by the same statement that inserts the raw
-- rows (lib/traffic/store.ts), so the two never disagree; kept when the retention deletes raw rows.
CREATE TABLE "traffic_daily" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "verification" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_daily_pkey" PRIMARY KEY ("workspaceId", "day", "domain", "path", "crawler", "verification")
);
ALTER TABLE "traffic_daily" ADD CONSTRAINT "traffic_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Per page across days (the funnel's "crawled: last seen, by whom").
CREATE INDEX "traffic_daily_workspaceId_domain_path_day_idx" ON "traffic_daily"("workspaceId", "domain", "path", "day");

-- crawler_ip_ranges: an operator's refreshed copy of a crawler's published ranges
-- (`npm run beacon -- traffic ranges import`); it replaces the snapshot shipped in
-- lib/traffic/ranges/ for that crawler. Instance-wide: the ranges are the crawler operator's facts.
CREATE TABLE "crawler_ip_ranges" (
    "crawler" TEXT NOT NULL,
    "prefixes" TEXT[] NOT NULL,
    "source" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3),
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawler_ip_ranges_pkey" PRIMARY KEY ("crawler")
);
