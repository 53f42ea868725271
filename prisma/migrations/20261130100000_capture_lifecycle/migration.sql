-- One owner for the capture lifecycle (lib/captures/lifecycle): per-capture budget holds kept in
-- the month they were taken, worst-case reservations per attempt (the budget is a hard cap),
-- "waiting for budget", per-call limits sent to providers, a short timeout for breaker probes,
-- and the run tokens each worker is still running (so an abandoned attempt is found while its
-- worker lives).

-- CreateEnum
CREATE TYPE "CaptureWait" AS ENUM ('breaker', 'budget');

-- AlterTable
ALTER TABLE "provider_configs" ADD COLUMN     "maxOutputTokens" INTEGER NOT NULL DEFAULT 2048,
ADD COLUMN     "maxSearchCalls" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "breakerProbeTimeoutMs" INTEGER NOT NULL DEFAULT 15000;

-- AlterTable
ALTER TABLE "captures" ADD COLUMN     "reservedMicros" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "reservedPeriod" DATE,
ADD COLUMN     "waitingFor" "CaptureWait";

-- AlterTable
ALTER TABLE "attempts" ADD COLUMN     "reservedMicros" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "budgetPeriod" DATE;

-- AlterTable
ALTER TABLE "budget_periods" ADD COLUMN     "inFlightMicros" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "worker_heartbeats" ADD COLUMN     "activeRunTokens" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[],
ADD COLUMN     "activeAsOf" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "attempts_outcome_workerId_idx" ON "attempts"("outcome", "workerId");

-- CreateIndex
CREATE INDEX "events_kind_idx" ON "events"("kind");

-- Data: a check's reservation used to be one sum held in its creation month; it becomes the
-- holds of its unfinished captures (shared equally, remainder to the first), in that same month.
WITH open AS (
  SELECT c.id, ch."reservedMicros" AS total,
         count(*) OVER (PARTITION BY c."checkId") AS n,
         row_number() OVER (PARTITION BY c."checkId" ORDER BY c.id) AS k,
         date_trunc('month', ch."createdAt")::date AS period
  FROM "captures" c JOIN "checks" ch ON ch.id = c."checkId"
  WHERE c.status IN ('queued', 'running', 'retry_wait', 'postponed') AND ch."reservedMicros" > 0
)
UPDATE "captures" c
SET "reservedMicros" = open.total / open.n + CASE WHEN open.k <= open.total % open.n THEN 1 ELSE 0 END,
    "reservedPeriod" = open.period
FROM open WHERE c.id = open.id;

-- A check that still held money with no unfinished capture gives it back.
UPDATE "budget_periods" b SET "reservedMicros" = GREATEST(0, b."reservedMicros" - s.held)
FROM (
  SELECT ch."workspaceId", date_trunc('month', ch."createdAt")::date AS period, sum(ch."reservedMicros") AS held
  FROM "checks" ch
  WHERE ch."reservedMicros" > 0
    AND NOT EXISTS (SELECT 1 FROM "captures" c WHERE c."checkId" = ch.id AND c.status IN ('queued', 'running', 'retry_wait', 'postponed'))
  GROUP BY 1, 2
) s
WHERE b."workspaceId" = s."workspaceId" AND b."periodStart" = s.period;
UPDATE "checks" ch SET "reservedMicros" = 0
WHERE ch."reservedMicros" > 0
  AND NOT EXISTS (SELECT 1 FROM "captures" c WHERE c."checkId" = ch.id AND c.status IN ('queued', 'running', 'retry_wait', 'postponed'));

-- Money is now charged per attempt as it ends (it was charged per check when the check ended):
-- the ended attempts of unfinished checks are charged now, in the check's month.
WITH spent AS (
  SELECT c."checkId", ch."workspaceId", date_trunc('month', ch."createdAt")::date AS period, sum(a."costMicros") AS micros
  FROM "attempts" a JOIN "captures" c ON c.id = a."captureId" JOIN "checks" ch ON ch.id = c."checkId"
  WHERE a.outcome IS NOT NULL AND ch.status IN ('queued', 'running')
  GROUP BY 1, 2, 3
), per_check AS (
  UPDATE "checks" ch SET "chargedMicros" = spent.micros FROM spent WHERE ch.id = spent."checkId" RETURNING ch.id
)
UPDATE "budget_periods" b SET "chargedMicros" = b."chargedMicros" + s.micros
FROM (SELECT "workspaceId", period, sum(micros) AS micros FROM spent GROUP BY 1, 2) s
WHERE b."workspaceId" = s."workspaceId" AND b."periodStart" = s.period;
UPDATE "attempts" a SET "budgetPeriod" = date_trunc('month', ch."createdAt")::date
FROM "captures" c JOIN "checks" ch ON ch.id = c."checkId"
WHERE c.id = a."captureId" AND a.outcome IS NOT NULL AND ch.status IN ('queued', 'running');
