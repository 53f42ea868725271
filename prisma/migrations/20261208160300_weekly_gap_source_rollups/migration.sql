-- Gap sources over long ranges (issue 20): the daily gap rollups are one row per day, provider
-- and domain (and competitor), so 90 days read some 72,000 rows at a million captures. As for the
-- domain charts (rollup_domain_weeks), rollup_gap_source_weeks and rollup_tag_gap_source_weeks
-- hold the same counts per ISO week (Monday); a range reads its whole weeks from them and the
-- days at its edges from the daily tables. Kept by beacon_rollup_captures after
-- rollup_tag_gap_sources in its lock order; the per-tag one moves with a prompt's tags
-- (beacon_prompt_tags_changed). Built here from the daily rows (the same sums).

CREATE TABLE "rollup_gap_source_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "offSite" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_gap_source_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name")
);
ALTER TABLE "rollup_gap_source_weeks" ADD CONSTRAINT "rollup_gap_source_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_source_weeks" ADD CONSTRAINT "rollup_gap_source_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_gap_source_weeks" ADD CONSTRAINT "rollup_gap_source_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_tag_gap_source_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "offSite" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_gap_source_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name")
);
ALTER TABLE "rollup_tag_gap_source_weeks" ADD CONSTRAINT "rollup_tag_gap_source_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_gap_source_weeks" ADD CONSTRAINT "rollup_tag_gap_source_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_gap_source_weeks" ADD CONSTRAINT "rollup_tag_gap_source_weeks_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

INSERT INTO rollup_gap_source_weeks ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "providerConfigId", domain, name, sum(answers), sum("offSite")
FROM rollup_gap_sources
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(answers) <> 0;

INSERT INTO rollup_tag_gap_source_weeks ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
SELECT "workspaceId", "brandId", tag, date_trunc('week', day)::date, "providerConfigId", domain, name, sum(answers), sum("offSite")
FROM rollup_tag_gap_sources
GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum(answers) <> 0;

CREATE INDEX "rollup_gap_source_weeks_workspaceId_brandId_name_week_idx" ON "rollup_gap_source_weeks"("workspaceId", "brandId", "name", "week");
CREATE INDEX "rollup_gap_source_weeks_workspaceId_brandId_domain_week_idx" ON "rollup_gap_source_weeks"("workspaceId", "brandId", "domain", "week");
CREATE INDEX "rollup_tag_gap_source_weeks_workspaceId_brandId_tag_name_we_idx" ON "rollup_tag_gap_source_weeks"("workspaceId", "brandId", "tag", "name", "week");
CREATE INDEX "rollup_tag_gap_source_weeks_workspaceId_brandId_tag_domain__idx" ON "rollup_tag_gap_source_weeks"("workspaceId", "brandId", "tag", "domain", "week");
