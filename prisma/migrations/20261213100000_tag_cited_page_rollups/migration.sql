-- Cited pages with one tag (issue 20: 156 / 214 ms p95 for 90 days and a year at ten million
-- captures, over the goal of 150). They read the tag's prompts' rows per prompt, month and URL
-- (rollup_cited_page_prompt_months and _weeks): a URL cited for four of the tag's prompts was four
-- rows. These keep the same counts per tag of the prompt (its current tags, as rollup_tag_domains)
-- per ISO week (Monday) and month (its first day), without the provider or the prompt: a range's
-- whole months and weeks read a row per URL. The days at a range's edges are still read per
-- prompt, so a re-tagging moves a prompt's weeks and months (beacon_prompt_tags_changed, from the
-- per-prompt tables of the same grain), never its days (which took a minute for a large prompt).
-- No latest title: a maximum cannot be moved away from a tag; the page's title is read per prompt.
--
-- Kept by beacon_rollup_captures after rollup_cited_page_prompt_months in its lock order; built
-- here from the per-prompt weeks and months already there, in key order.

CREATE TABLE "rollup_tag_cited_page_weeks" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "week" DATE NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_cited_page_weeks_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "url", "domain")
);
ALTER TABLE "rollup_tag_cited_page_weeks" ADD CONSTRAINT "rollup_tag_cited_page_weeks_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_cited_page_weeks" ADD CONSTRAINT "rollup_tag_cited_page_weeks_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rollup_tag_cited_page_months" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_cited_page_months_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "month", "url", "domain")
);
ALTER TABLE "rollup_tag_cited_page_months" ADD CONSTRAINT "rollup_tag_cited_page_months_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_cited_page_months" ADD CONSTRAINT "rollup_tag_cited_page_months_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_tag_cited_page_weeks ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
SELECT r."workspaceId", r."brandId", t.tag, r.week, r.url, r.domain, sum(r.citations), sum(r."ownCitations"), sum(r.answers)
FROM rollup_cited_page_prompt_weeks r
JOIN prompts p ON p.id = r."promptId"
CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(r.citations) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;

INSERT INTO rollup_tag_cited_page_months ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
SELECT r."workspaceId", r."brandId", t.tag, r.month, r.url, r.domain, sum(r.citations), sum(r."ownCitations"), sum(r.answers)
FROM rollup_cited_page_prompt_months r
JOIN prompts p ON p.id = r."promptId"
CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(r.citations) <> 0
ORDER BY 1, 2, 3, 4, 5, 6;

-- Their statistics now: planned without them, the first reads took a seq scan and a group estimate
-- of 200 URLs for ten thousand until autovacuum came by.
ANALYZE rollup_tag_cited_page_weeks, rollup_tag_cited_page_months;
