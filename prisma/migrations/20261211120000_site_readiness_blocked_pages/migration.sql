-- Every cited own page robots.txt keeps a search or user-fetch crawler out of, as of the last
-- readiness check (lib/traffic/readiness-check.ts), not only the five pages that check fetches.
CREATE TABLE "site_readiness_blocked_pages" (
    "workspaceId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blockedFor" TEXT[] NOT NULL,
    CONSTRAINT "site_readiness_blocked_pages_pkey" PRIMARY KEY ("workspaceId", "domain", "path")
);

ALTER TABLE "site_readiness_blocked_pages" ADD CONSTRAINT "site_readiness_blocked_pages_workspaceId_domain_fkey"
  FOREIGN KEY ("workspaceId", "domain") REFERENCES "site_readiness"("workspaceId", "domain") ON DELETE CASCADE ON UPDATE CASCADE;

-- Until each domain's next check: the verdicts the last one stored for the pages it fetched.
INSERT INTO "site_readiness_blocked_pages" ("workspaceId", "domain", "path", "blockedFor")
SELECT s."workspaceId", s.domain, split_part(pg.page->>'path', '?', 1),
  array_agg(DISTINCT cr->>'name' ORDER BY cr->>'name')
FROM site_readiness s
  CROSS JOIN LATERAL jsonb_array_elements(s.pages) WITH ORDINALITY AS pg(page, i)
  CROSS JOIN LATERAL jsonb_array_elements(s.crawlers) AS cr
WHERE cr->>'purpose' IN ('search', 'user') AND NOT (cr->'pages'->((pg.i - 1)::int)->>'allowed')::boolean
GROUP BY 1, 2, 3;
