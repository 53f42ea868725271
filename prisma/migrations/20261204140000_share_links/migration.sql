-- Reports to share (issue 12): read-only links to one brand's Overview for a period, and the
-- agency name and logo a workspace puts on them.

-- CreateTable
CREATE TABLE "share_links" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "tokenHash" TEXT NOT NULL,
    "providerConfigIds" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[],
    "tags" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "markets" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "rangeDays" INTEGER,
    "fromDay" DATE,
    "toDay" DATE,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastViewedAt" TIMESTAMP(3),
    "viewCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id"),
    -- Either a rolling range (the last N days at viewing time) or fixed days, never both.
    CONSTRAINT "share_links_period_check" CHECK (("rangeDays" IS NOT NULL) <> ("fromDay" IS NOT NULL AND "toDay" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "workspace_brandings" (
    "workspaceId" UUID NOT NULL,
    "agencyName" TEXT,
    "logo" BYTEA,
    "logoType" TEXT,
    "updatedById" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_brandings_pkey" PRIMARY KEY ("workspaceId")
);

-- CreateIndex
CREATE UNIQUE INDEX "share_links_tokenHash_key" ON "share_links"("tokenHash");

-- CreateIndex
CREATE INDEX "share_links_workspaceId_idx" ON "share_links"("workspaceId");

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_brandings" ADD CONSTRAINT "workspace_brandings_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
