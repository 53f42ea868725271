-- Discovery's daily pass with one tag (issue 20: goal 200 ms at a million answers in its period).
-- With a tag filter it read rollup_candidates, one row per day, provider, prompt and spelling
-- (1.3-1.7 s at a million answers: the tag's prompts' rows, grouped). rollup_tag_candidates holds
-- the same counts per tag of the prompt (its current tags, as rollup_tag_domains) without the
-- provider or the prompt, what the pass reads with one tag and no provider filter. Kept by
-- beacon_rollup_captures after rollup_candidate_day_totals in its lock order, and moved between
-- tags from rollup_candidates when a prompt's tags change (beacon_prompt_tags_changed). Built here
-- from the history already there, in key order (a range's rows then sit together).

CREATE TABLE "rollup_tag_candidates" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_candidates_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "key", "name")
);
ALTER TABLE "rollup_tag_candidates" ADD CONSTRAINT "rollup_tag_candidates_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_candidates" ADD CONSTRAINT "rollup_tag_candidates_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_tag_candidates ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
SELECT r."workspaceId", r."brandId", t.tag, r.day, r.key, r.name, sum(r.answers)
FROM rollup_candidates r
JOIN prompts p ON p.id = r."promptId"
CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(r.answers) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;
