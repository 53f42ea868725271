-- Gap sources at scale (issue 20). The gap sources chart read every answer of the range, its
-- mentions and citations (7.2 s for 7 days at a million captures). Two rollups keep what it
-- counts, the gap answers (succeeded, the brand's mention row not mentioned, some competitor
-- mentioned), per day and provider:
--   rollup_gap_sources          without the prompt (what an unfiltered range reads), and
--   rollup_gap_source_prompts   per prompt (a tag or market filter).
-- Three kinds of row, by key:
--   domain '' and name ''       the gap answers;
--   domain d and name ''        those citing d in the answer text;
--   domain d and name n         of those, the mention rows naming competitor n (as the chart
--                               joined them).
-- "answers" counts them; "offSite" only those with a citation of d that is not the brand's own
-- (isOwnDomain), what the chart counts when it leaves the entities' sites out (the competitors'
-- domains are left out when reading, by domain).
-- Kept by beacon_rollup_captures (prisma/sql), after rollup_own_pages in its lock order; built here
-- from the history already there.

CREATE TABLE "rollup_gap_sources" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "offSite" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_gap_sources_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name")
);
ALTER TABLE "rollup_gap_sources" ADD CONSTRAINT "rollup_gap_sources_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_sources" ADD CONSTRAINT "rollup_gap_sources_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_sources" ADD CONSTRAINT "rollup_gap_sources_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_gap_source_prompts" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "offSite" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_gap_source_prompts_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name")
);
ALTER TABLE "rollup_gap_source_prompts" ADD CONSTRAINT "rollup_gap_source_prompts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_source_prompts" ADD CONSTRAINT "rollup_gap_source_prompts_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_source_prompts" ADD CONSTRAINT "rollup_gap_source_prompts_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_source_prompts" ADD CONSTRAINT "rollup_gap_source_prompts_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The history already there, as beacon_rollup_captures counts it.
INSERT INTO rollup_gap_source_prompts ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
WITH gap AS (
  SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
  FROM captures c
  WHERE c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
    AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
    AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
),
cited AS (
  SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
  FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
  GROUP BY 1, 2
),
rows AS (
  SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
  UNION ALL
  SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
  UNION ALL
  SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
  JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
)
SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name, count(*), count(*) FILTER (WHERE off)
FROM rows
GROUP BY 1, 2, 3, 4, 5, 6, 7;

INSERT INTO rollup_gap_sources ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
SELECT "workspaceId", "brandId", day, "providerConfigId", domain, name, sum(answers), sum("offSite")
FROM rollup_gap_source_prompts
GROUP BY 1, 2, 3, 4, 5, 6;
