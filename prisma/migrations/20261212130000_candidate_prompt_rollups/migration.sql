-- Discovery with a tag and a provider filter, or with tags that share a prompt, read
-- rollup_candidates (per day, provider, prompt and spelling): 470-760 ms p95 at a million answers
-- in 30 days. These keep the same per prompt without the provider per day and ISO week (its
-- Monday), and per prompt and provider per week: the pass reads a range's whole weeks there and
-- its edge days from the daily rows (rollup_candidates with a provider filter). The prompt is a
-- key, so a re-tagging moves no row (per tag set rows did: 36-71 s for a large prompt).
--
-- Kept by beacon_rollup_captures after rollup_tag_candidate_weeks in its lock order. Built here
-- from rollup_candidates, which hold the history whose raw rows retention has removed, in key order.

CREATE TABLE "rollup_candidate_prompt_days" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "promptId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_prompt_days_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "key", "name")
);
ALTER TABLE "rollup_candidate_prompt_days" ADD CONSTRAINT "rollup_candidate_prompt_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_prompt_days" ADD CONSTRAINT "rollup_candidate_prompt_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rollup_candidate_prompt_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "promptId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_prompt_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "key", "name")
);
ALTER TABLE "rollup_candidate_prompt_weeks" ADD CONSTRAINT "rollup_candidate_prompt_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_prompt_weeks" ADD CONSTRAINT "rollup_candidate_prompt_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rollup_candidate_prompt_provider_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "week" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_prompt_provider_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name")
);
ALTER TABLE "rollup_candidate_prompt_provider_weeks" ADD CONSTRAINT "rollup_candidate_prompt_provider_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_prompt_provider_weeks" ADD CONSTRAINT "rollup_candidate_prompt_provider_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_candidate_prompt_days ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
SELECT "workspaceId", "brandId", day, "promptId", key, name, sum(answers)
FROM rollup_candidates
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_candidate_prompt_weeks ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "promptId", key, name, sum(answers)
FROM rollup_candidate_prompt_days
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_candidate_prompt_provider_weeks ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
SELECT "workspaceId", "brandId", date_trunc('week', day)::date, "providerConfigId", "promptId", key, name, sum(answers)
FROM rollup_candidates
GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum(answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6, 7;
