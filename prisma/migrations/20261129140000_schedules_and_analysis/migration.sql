-- CreateEnum
CREATE TYPE "ScheduleCadence" AS ENUM ('daily', 'weekly');

-- CreateEnum
CREATE TYPE "AnalysisRunStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- AlterTable
ALTER TABLE "brands" ADD COLUMN     "caseSensitiveAliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "competitors" ADD COLUMN     "caseSensitiveAliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "checks" ADD COLUMN     "scheduleId" UUID,
ADD COLUMN     "isDemo" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "captures" ADD COLUMN     "analyzedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "schedules" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "brandId" UUID NOT NULL,
    "promptSelection" JSONB NOT NULL,
    "providerConfigIds" UUID[] NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 1,
    "cadence" "ScheduleCadence" NOT NULL,
    "weekday" INTEGER,
    "minuteOfDay" INTEGER NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "nextRunAt" TIMESTAMP(3) NOT NULL,
    "lastRunAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "analysis_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "status" "AnalysisRunStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "analysis_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "checks_scheduleId_createdAt_idx" ON "checks"("scheduleId", "createdAt");

-- CreateIndex
CREATE INDEX "schedules_workspaceId_idx" ON "schedules"("workspaceId");

-- CreateIndex
CREATE INDEX "schedules_paused_nextRunAt_idx" ON "schedules"("paused", "nextRunAt");

-- CreateIndex
CREATE INDEX "analysis_runs_workspaceId_brandId_createdAt_idx" ON "analysis_runs"("workspaceId", "brandId", "createdAt");

-- AddForeignKey
ALTER TABLE "checks" ADD CONSTRAINT "checks_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analysis_runs" ADD CONSTRAINT "analysis_runs_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "analysis_runs" ADD CONSTRAINT "analysis_runs_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
