-- Discovery's daily pass reads one row per day and spelling of its period (per provider with a
-- provider filter): at a million answers in 30 days every name is named every day, 66,000 rows
-- grouped into 2,211 spellings. rollup_candidate_weeks, rollup_candidate_week_totals and
-- rollup_tag_candidate_weeks hold rollup_candidate_days, rollup_candidate_day_totals and
-- rollup_tag_candidates per ISO week (its Monday): the pass reads a range's whole weeks there and
-- the days of its partial edge weeks from the daily ones, a third of the rows or less at 30
-- days. Kept by beacon_rollup_captures after rollup_tag_candidates in its lock order; the tag's
-- weeks move from rollup_candidates when a prompt's tags change (beacon_prompt_tags_changed).
-- Built here from the daily rows, in key order.

CREATE TABLE "rollup_candidate_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "key", "name")
);
ALTER TABLE "rollup_candidate_weeks" ADD CONSTRAINT "rollup_candidate_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_weeks" ADD CONSTRAINT "rollup_candidate_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rollup_candidate_week_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_week_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "key", "name")
);
ALTER TABLE "rollup_candidate_week_totals" ADD CONSTRAINT "rollup_candidate_week_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_week_totals" ADD CONSTRAINT "rollup_candidate_week_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rollup_tag_candidate_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "week" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_candidate_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "key", "name")
);
ALTER TABLE "rollup_tag_candidate_weeks" ADD CONSTRAINT "rollup_tag_candidate_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_candidate_weeks" ADD CONSTRAINT "rollup_tag_candidate_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_candidate_weeks ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "providerConfigId", key, name, sum(answers)
FROM rollup_candidate_days
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_candidate_week_totals ("workspaceId", "brandId", "week", "key", "name", "answers")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, key, name, sum(answers)
FROM rollup_candidate_day_totals
GROUP BY 1, 2, 3, 4, 5
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5;

INSERT INTO rollup_tag_candidate_weeks ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
SELECT "workspaceId", "brandId", tag, date_trunc('week', day)::date, key, name, sum(answers)
FROM rollup_tag_candidates
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;
