-- Every chart at scale (issue 20). Two kinds of rollup:
--
-- Weekly cited domains. Past 120 days the top domains and source categories charts count per
-- ISO week (Monday), and read one daily row per day, provider and domain: a year was 365 rows
-- per domain and provider (166 ms at a million captures). rollup_domain_weeks (per week,
-- provider, domain) and rollup_tag_domain_weeks (the same per tag) hold the same counts per week;
-- a weekly range reads its whole weeks from them and the days of the partial weeks at its edges
-- from the daily tables, so a year reads 52 rows per domain and provider, and the sums are the
-- daily rows' sums. Monthly rollups would not answer weekly buckets.
--
-- Own pages. The own pages chart and the own_page_dropped alert read every citation of the
-- range (seconds at a million captures). rollup_own_pages keeps, per rollup_answers key and own
-- URL (cited in the answer, isOwnDomain), the citations, the answers citing it and the title of
-- its latest answer with one.
--
-- All three are kept by beacon_rollup_captures (prisma/sql), after rollup_tag_domains in its lock
-- order; rollup_tag_domain_weeks follows a prompt's tags like rollup_tag_domains
-- (beacon_prompt_tags_changed). They are built here from the history already there.

CREATE TABLE "rollup_domain_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_domain_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain")
);
ALTER TABLE "rollup_domain_weeks" ADD CONSTRAINT "rollup_domain_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_domain_weeks" ADD CONSTRAINT "rollup_domain_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_domain_weeks" ADD CONSTRAINT "rollup_domain_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_tag_domain_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_domain_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain")
);
ALTER TABLE "rollup_tag_domain_weeks" ADD CONSTRAINT "rollup_tag_domain_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_domain_weeks" ADD CONSTRAINT "rollup_tag_domain_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_domain_weeks" ADD CONSTRAINT "rollup_tag_domain_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_own_pages" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_own_pages_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain")
);
ALTER TABLE "rollup_own_pages" ADD CONSTRAINT "rollup_own_pages_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_own_pages" ADD CONSTRAINT "rollup_own_pages_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_own_pages" ADD CONSTRAINT "rollup_own_pages_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_own_pages" ADD CONSTRAINT "rollup_own_pages_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The history already there: the weekly tables from the daily ones (the same counts), the own
-- pages from the raw rows.
INSERT INTO rollup_domain_weeks ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "providerConfigId", domain, sum(citations), sum("ownCitations")
FROM rollup_domains
GROUP BY 1, 2, 3, 4, 5
HAVING sum(citations) <> 0 OR sum("ownCitations") <> 0;

INSERT INTO rollup_tag_domain_weeks ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
SELECT "workspaceId", "brandId", tag, date_trunc('week', day)::date, "providerConfigId", domain, sum(citations), sum("ownCitations")
FROM rollup_tag_domains
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(citations) <> 0 OR sum("ownCitations") <> 0;

INSERT INTO rollup_own_pages ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.url, ci.domain,
  count(*), count(DISTINCT c.id),
  (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1],
  max(c."finishedAt") FILTER (WHERE ci.title <> '')
FROM captures c
JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain"
WHERE c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6, 7;
