-- Gap sources with one tag (issue 20). With a tag filter the gap sources chart read
-- rollup_gap_source_prompts, one row per prompt as well (2 to 12 s past 30 days at a million
-- captures); rollup_tag_gap_sources holds the same counts per tag (the prompts' current tags),
-- as rollup_tag_domains does for rollup_domains. Kept by beacon_rollup_captures after
-- rollup_gap_sources in its lock order, and moved between tags from rollup_gap_source_prompts when
-- a prompt's tags change (beacon_prompt_tags_changed). Built here from the history already there.

CREATE TABLE "rollup_tag_gap_sources" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "offSite" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_gap_sources_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name")
);
ALTER TABLE "rollup_tag_gap_sources" ADD CONSTRAINT "rollup_tag_gap_sources_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_gap_sources" ADD CONSTRAINT "rollup_tag_gap_sources_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_gap_sources" ADD CONSTRAINT "rollup_tag_gap_sources_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

INSERT INTO rollup_tag_gap_sources ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
SELECT r."workspaceId", r."brandId", t.tag, r.day, r."providerConfigId", r.domain, r.name, sum(r.answers), sum(r."offSite")
FROM rollup_gap_source_prompts r
JOIN prompts p ON p.id = r."promptId"
CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum(r.answers) <> 0;

CREATE INDEX "rollup_tag_gap_sources_workspaceId_brandId_tag_name_day_idx" ON "rollup_tag_gap_sources"("workspaceId", "brandId", "tag", "name", "day");
CREATE INDEX "rollup_tag_gap_sources_workspaceId_brandId_tag_domain_day_idx" ON "rollup_tag_gap_sources"("workspaceId", "brandId", "tag", "domain", "day");
