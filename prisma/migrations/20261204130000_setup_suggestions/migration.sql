-- First run (issue 12, item 4): a new workspace's suggested brand, competitors and buyer
-- questions, generated from its website's domain by one provider call in the worker
-- (lib/setup). The row is the request, the job's state and its money: the call's worst case is
-- held in flight on the budget and the grant from the request on, and settled when it ends.
CREATE TYPE "SetupSuggestionStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "setup_suggestions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "requestedById" TEXT,
    "domain" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "country" TEXT,
    "connectionId" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "status" "SetupSuggestionStatus" NOT NULL DEFAULT 'queued',
    "result" JSONB,
    "error" TEXT,
    "reservedMicros" BIGINT NOT NULL DEFAULT 0,
    "costMicros" BIGINT,
    "budgetPeriod" DATE NOT NULL,
    "checkId" UUID,
    "acceptedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "setup_suggestions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "setup_suggestions_workspaceId_createdAt_idx" ON "setup_suggestions"("workspaceId", "createdAt");

-- AddForeignKey
ALTER TABLE "setup_suggestions" ADD CONSTRAINT "setup_suggestions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "setup_suggestions" ADD CONSTRAINT "setup_suggestions_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "setup_suggestions" ADD CONSTRAINT "setup_suggestions_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "checks"("id") ON DELETE SET NULL ON UPDATE CASCADE;
