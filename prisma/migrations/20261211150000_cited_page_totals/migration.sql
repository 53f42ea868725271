-- Cited pages without the provider (issue 20: the table took 0.4-0.8 s at 30-365 days at a million
-- captures). With no filter it summed one rollup_cited_pages or rollup_cited_page_weeks row per
-- URL, provider and day or week before the top 25 could be cut (90 days: 404,085 weekly rows
-- for 10,000 URLs). These keep the same counts per URL without the provider, per day, ISO week
-- (Monday) and month (its first day): a range reads its whole months, then the whole weeks and
-- the days at its edges, about one row per URL and period. The title stays in rollup_cited_pages
-- (read for the page shown only, by the latest titled answer's time kept here).
--
-- Kept by beacon_rollup_captures (prisma/sql) after rollup_cited_page_weeks in its lock order;
-- built here from rollup_cited_pages (the same counts: an answer has one provider).

CREATE TABLE "rollup_cited_page_day_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_day_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "url", "domain")
);
ALTER TABLE "rollup_cited_page_day_totals" ADD CONSTRAINT "rollup_cited_page_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_day_totals" ADD CONSTRAINT "rollup_cited_page_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_cited_page_day_totals ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", day, url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_pages
GROUP BY 1, 2, 3, 4, 5;

CREATE TABLE "rollup_cited_page_week_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_week_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "url", "domain")
);
ALTER TABLE "rollup_cited_page_week_totals" ADD CONSTRAINT "rollup_cited_page_week_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_week_totals" ADD CONSTRAINT "rollup_cited_page_week_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_cited_page_week_totals ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_pages
GROUP BY 1, 2, 3, 4, 5;

CREATE TABLE "rollup_cited_page_month_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "month" DATE NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_month_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "month", "url", "domain")
);
ALTER TABLE "rollup_cited_page_month_totals" ADD CONSTRAINT "rollup_cited_page_month_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_month_totals" ADD CONSTRAINT "rollup_cited_page_month_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_cited_page_month_totals ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", date_trunc('month', day)::date, url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_pages
GROUP BY 1, 2, 3, 4, 5;
