-- A person's cancel or retry of a whole check, run by a worker (lib/checks/operations.ts): the
-- request only records it and enqueues its job, so the server action answers at once and the
-- check page's poll shows how it went (issue 20 item 4).
CREATE TYPE "CheckOperationKind" AS ENUM ('cancel', 'retry');
CREATE TYPE "CheckOperationStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

CREATE TABLE "check_operations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "checkId" UUID NOT NULL,
    "kind" "CheckOperationKind" NOT NULL,
    "status" "CheckOperationStatus" NOT NULL DEFAULT 'queued',
    "requestedById" TEXT,
    "result" JSONB,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "check_operations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "check_operations_checkId_createdAt_idx" ON "check_operations"("checkId", "createdAt");

ALTER TABLE "check_operations" ADD CONSTRAINT "check_operations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "check_operations" ADD CONSTRAINT "check_operations_checkId_fkey" FOREIGN KEY ("checkId") REFERENCES "checks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
