-- Discovery's daily pass without a filter (issue 20: 444 ms, goal 200 ms at a million answers in
-- its 30 days). EXPLAIN ANALYZE at a million answers: 95 % of it was reading and grouping the
-- period's rollup_candidate_days rows (253,101, one per day, provider, key and spelling) into
-- 2,211 spellings. rollup_candidate_day_totals keeps the same counts without the provider (a
-- quarter of the rows), what the pass reads with neither a tag nor a provider filter. Kept by
-- beacon_rollup_captures after rollup_candidate_days; built here from it.

CREATE TABLE "rollup_candidate_day_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_day_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "key", "name")
);
ALTER TABLE "rollup_candidate_day_totals" ADD CONSTRAINT "rollup_candidate_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_day_totals" ADD CONSTRAINT "rollup_candidate_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_candidate_day_totals ("workspaceId", "brandId", "day", "key", "name", "answers")
SELECT "workspaceId", "brandId", day, key, name, sum(answers)
FROM rollup_candidate_days
GROUP BY 1, 2, 3, 4, 5
HAVING sum(answers) <> 0;
