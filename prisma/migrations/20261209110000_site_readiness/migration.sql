-- Site readiness (issue 21 item 3, docs/traffic.md): per workspace and own domain, the last check
-- of robots.txt (what each AI crawler may fetch), llms.txt, and the status each crawler's user
-- agent got for the most-cited own pages. One row per domain, replaced by every check.
CREATE TABLE "site_readiness" (
    "workspaceId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL,
    "robotsOutcome" TEXT NOT NULL,
    "robotsStatus" SMALLINT,
    "llmsTxt" BOOLEAN NOT NULL,
    "llmsTxtStatus" SMALLINT,
    "pages" JSONB NOT NULL,
    "crawlers" JSONB NOT NULL,

    CONSTRAINT "site_readiness_pkey" PRIMARY KEY ("workspaceId", "domain"),
    CONSTRAINT "site_readiness_robotsOutcome_check" CHECK ("robotsOutcome" IN ('found', 'missing', 'unreachable'))
);
ALTER TABLE "site_readiness" ADD CONSTRAINT "site_readiness_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
