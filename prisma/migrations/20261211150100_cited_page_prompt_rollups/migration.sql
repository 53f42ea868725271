-- Cited pages with a tag or market filter (issue 20: 1.3-15 s at a million captures, reading every
-- citation of the range with its capture and prompt). These keep the cited page counts per
-- prompt without the provider, per day (with the latest titled answer's title), ISO week
-- (Monday) and month (its first day); a filter on prompts reads those of its prompts, a range's
-- whole months from the monthly table and its edges' whole weeks and days from the others. The
-- prompt is a key, so a re-tagging moves no row (per-tag rows did: a minute for a large prompt).
--
-- Kept by beacon_rollup_captures (prisma/sql) after the cited page totals in its lock order;
-- built here from the raw rows (the day's), then the weeks and months from the days.

CREATE TABLE "rollup_cited_page_prompt_days" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "promptId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_prompt_days_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "url", "domain")
);
ALTER TABLE "rollup_cited_page_prompt_days" ADD CONSTRAINT "rollup_cited_page_prompt_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_days" ADD CONSTRAINT "rollup_cited_page_prompt_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_days" ADD CONSTRAINT "rollup_cited_page_prompt_days_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_cited_page_prompt_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "promptId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_prompt_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "url", "domain")
);
ALTER TABLE "rollup_cited_page_prompt_weeks" ADD CONSTRAINT "rollup_cited_page_prompt_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_weeks" ADD CONSTRAINT "rollup_cited_page_prompt_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_weeks" ADD CONSTRAINT "rollup_cited_page_prompt_weeks_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_cited_page_prompt_months" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "month" DATE NOT NULL,
    "promptId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_prompt_months_pkey" PRIMARY KEY ("workspaceId", "brandId", "month", "promptId", "url", "domain")
);
ALTER TABLE "rollup_cited_page_prompt_months" ADD CONSTRAINT "rollup_cited_page_prompt_months_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_months" ADD CONSTRAINT "rollup_cited_page_prompt_months_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_prompt_months" ADD CONSTRAINT "rollup_cited_page_prompt_months_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

INSERT INTO rollup_cited_page_prompt_days ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", ci.url, ci.domain,
  count(*), count(*) FILTER (WHERE ci."isOwnDomain"), count(DISTINCT c.id),
  (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1],
  max(c."finishedAt") FILTER (WHERE ci.title <> '')
FROM captures c
JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
WHERE c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_cited_page_prompt_weeks ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "promptId", url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_page_prompt_days
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_cited_page_prompt_months ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", date_trunc('month', day)::date, "promptId", url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_page_prompt_days
GROUP BY 1, 2, 3, 4, 5, 6;
