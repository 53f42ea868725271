-- Cited domains per day without the provider (issue 20: source categories over 90 days took
-- 92 / 106 ms median / p95 at a million captures, over the 75 ms of headroom asked at that
-- scale). A daily range with no provider or market filter summed rollup_domains' rows (or with
-- one tag rollup_tag_domains') per domain, day and provider (71,000 for 90 days); these keep the
-- same counts per domain and day (and tag).
--
-- Kept by beacon_rollup_captures (prisma/sql) after rollup_tag_domain_weeks in its lock order,
-- the per-tag one moved between tags by the prompts' tag trigger as rollup_tag_domains is; built
-- here from rollup_domains and rollup_tag_domains (the same counts: an answer has one provider).

CREATE TABLE "rollup_domain_day_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_domain_day_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "domain")
);
ALTER TABLE "rollup_domain_day_totals" ADD CONSTRAINT "rollup_domain_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_domain_day_totals" ADD CONSTRAINT "rollup_domain_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_domain_day_totals ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
SELECT "workspaceId", "brandId", day, domain, sum(citations), sum("ownCitations")
FROM rollup_domains
GROUP BY 1, 2, 3, 4
ORDER BY 1, 2, 3, 4;

CREATE TABLE "rollup_tag_domain_day_totals" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_domain_day_totals_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "domain")
);
ALTER TABLE "rollup_tag_domain_day_totals" ADD CONSTRAINT "rollup_tag_domain_day_totals_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_domain_day_totals" ADD CONSTRAINT "rollup_tag_domain_day_totals_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO rollup_tag_domain_day_totals ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
SELECT "workspaceId", "brandId", tag, day, domain, sum(citations), sum("ownCitations")
FROM rollup_tag_domains
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1, 2, 3, 4, 5;
