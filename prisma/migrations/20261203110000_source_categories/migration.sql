-- Where answers come from (issue 12): a workspace's own category for a cited domain, over the
-- mapping shipped in lib/sources/source-domains.ts.
CREATE TYPE "SourceCategory" AS ENUM ('review', 'forum', 'news', 'reference', 'social', 'docs', 'other');

-- CreateTable
CREATE TABLE "source_category_overrides" (
    "workspaceId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "category" "SourceCategory" NOT NULL,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_category_overrides_pkey" PRIMARY KEY ("workspaceId","domain")
);

-- AddForeignKey
ALTER TABLE "source_category_overrides" ADD CONSTRAINT "source_category_overrides_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
