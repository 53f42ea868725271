-- An access log import sent with an Idempotency-Key records how far its hits are committed, in
-- the same transaction as each chunk of hits: a request sent again after a lost response or a
-- broken upload stores only the lines not yet stored (it counted every crawl twice), and one sent
-- again after the import ended gets its report back (lib/traffic/import-record.ts).
CREATE TYPE "TrafficImportState" AS ENUM ('running', 'interrupted', 'done');

CREATE TABLE "traffic_imports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "state" "TrafficImportState" NOT NULL DEFAULT 'running',
    "token" INTEGER NOT NULL DEFAULT 1,
    "leaseUntil" TIMESTAMP(3),
    "committedLines" INTEGER NOT NULL DEFAULT 0,
    "committedHash" TEXT,
    "committedHits" INTEGER NOT NULL DEFAULT 0,
    "bodyHash" TEXT,
    "report" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "traffic_imports_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "traffic_imports_workspaceId_key_key" ON "traffic_imports"("workspaceId", "key");
CREATE INDEX "traffic_imports_expiresAt_idx" ON "traffic_imports"("expiresAt");

ALTER TABLE "traffic_imports" ADD CONSTRAINT "traffic_imports_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
