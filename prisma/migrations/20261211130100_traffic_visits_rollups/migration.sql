-- Rollups of traffic_visits_daily (visits per day, page and assistant) for the Traffic page, as
-- traffic_daily has them for crawls (docs/traffic.md "Rollups"): at 100M hits it holds about a
-- million rows a year, and the visits chart and the funnel read them per day or per page.
-- Written by the same statement as traffic_visits_daily (lib/traffic/visits.ts addVisits) and,
-- like it, deleted with their workspace (foreign key, cascade).
--
-- traffic_visits_assistants_daily: per (workspace, day, domain, assistant), no path: the visits chart.
CREATE TABLE "traffic_visits_assistants_daily" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "assistant" TEXT NOT NULL,
    "visits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_visits_assistants_daily_pkey" PRIMARY KEY ("workspaceId", "day", "domain", "assistant")
);
ALTER TABLE "traffic_visits_assistants_daily" ADD CONSTRAINT "traffic_visits_assistants_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- traffic_visits_pages_weekly and _monthly: per (workspace, ISO week's Monday or month's first
-- day, domain, path), all assistants together: a range's weeks and months (the funnel's visits
-- per page; its days come from traffic_visits_daily).
CREATE TABLE "traffic_visits_pages_weekly" (
    "workspaceId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "visits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_visits_pages_weekly_pkey" PRIMARY KEY ("workspaceId", "week", "domain", "path")
);
ALTER TABLE "traffic_visits_pages_weekly" ADD CONSTRAINT "traffic_visits_pages_weekly_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "traffic_visits_pages_monthly" (
    "workspaceId" UUID NOT NULL,
    "month" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "visits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_visits_pages_monthly_pkey" PRIMARY KEY ("workspaceId", "month", "domain", "path")
);
ALTER TABLE "traffic_visits_pages_monthly" ADD CONSTRAINT "traffic_visits_pages_monthly_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "traffic_visits_assistants_daily" ("workspaceId", day, domain, assistant, visits)
SELECT "workspaceId", day, domain, assistant, sum(visits) FROM "traffic_visits_daily" GROUP BY 1, 2, 3, 4 ORDER BY 2;
INSERT INTO "traffic_visits_pages_weekly" ("workspaceId", week, domain, path, visits)
SELECT "workspaceId", date_trunc('week', day)::date, domain, path, sum(visits) FROM "traffic_visits_daily" GROUP BY 1, 2, 3, 4 ORDER BY 2;
INSERT INTO "traffic_visits_pages_monthly" ("workspaceId", month, domain, path, visits)
SELECT "workspaceId", date_trunc('month', day)::date, domain, path, sum(visits) FROM "traffic_visits_daily" GROUP BY 1, 2, 3, 4 ORDER BY 2;
