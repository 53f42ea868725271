-- Cited pages at scale (issue 20). The Sources page's cited pages table read every citation of
-- the range with its capture (2-3 s at a million captures). rollup_cited_pages keeps, per day,
-- provider and URL cited in the answer, the citations, those as the brand's own, the answers
-- citing it and the title of its latest answer with one; rollup_cited_page_weeks the same counts
-- per ISO week (Monday), which a range reads for its whole weeks (the days of its partial edge
-- weeks from the daily table), with the latest titled answer's time (its title is then read from
-- the daily row of that day). Neither has the prompt: a URL is cited in few answers, so per prompt
-- the rows would be nearly as many as the citations; a filter on prompts (tags, markets) reads
-- the raw rows as before.
--
-- Both are kept by beacon_rollup_captures (prisma/sql), after rollup_own_pages in its lock order.
-- They are built here from the history already there.

CREATE TABLE "rollup_cited_pages" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_pages_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain")
);
ALTER TABLE "rollup_cited_pages" ADD CONSTRAINT "rollup_cited_pages_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_pages" ADD CONSTRAINT "rollup_cited_pages_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_pages" ADD CONSTRAINT "rollup_cited_pages_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_cited_page_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "titleAt" TIMESTAMP(3),

    CONSTRAINT "rollup_cited_page_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain")
);
ALTER TABLE "rollup_cited_page_weeks" ADD CONSTRAINT "rollup_cited_page_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_weeks" ADD CONSTRAINT "rollup_cited_page_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_cited_page_weeks" ADD CONSTRAINT "rollup_cited_page_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

INSERT INTO rollup_cited_pages ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.url, ci.domain,
  count(*), count(*) FILTER (WHERE ci."isOwnDomain"), count(DISTINCT c.id),
  (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1],
  max(c."finishedAt") FILTER (WHERE ci.title <> '')
FROM captures c
JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
WHERE c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_cited_page_weeks ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "providerConfigId", url, domain, sum(citations), sum("ownCitations"), sum(answers), max("titleAt")
FROM rollup_cited_pages
GROUP BY 1, 2, 3, 4, 5, 6;
