-- Provider connections belong to the instance (DESIGN.md "Provider connection"): an adapter, its
-- credentials and base URL (from the server's environment, never stored here), a price table, a
-- model allowlist, a concurrency cap, per-call limits and a breaker, managed by operators and
-- granted to workspaces (each grant with an optional monthly spend limit). A workspace's
-- "provider" (provider_configs) is now only its named use of a granted connection: a model from
-- the allowlist and a search mode. Caps, breakers (per connection and model) and spend count
-- per connection across all workspaces.

-- CreateTable
CREATE TABLE "provider_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "adapter" "ProviderAdapter" NOT NULL,
    "models" TEXT[],
    "inputPricePerMTokMicros" INTEGER NOT NULL DEFAULT 0,
    "outputPricePerMTokMicros" INTEGER NOT NULL DEFAULT 0,
    "cachedPricePerMTokMicros" INTEGER NOT NULL DEFAULT 0,
    "reasoningPricePerMTokMicros" INTEGER NOT NULL DEFAULT 0,
    "searchPriceMicros" INTEGER NOT NULL DEFAULT 0,
    "maxConcurrency" INTEGER NOT NULL DEFAULT 4,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "unknownRetries" INTEGER NOT NULL DEFAULT 1,
    "timeoutMs" INTEGER NOT NULL DEFAULT 120000,
    "maxOutputTokens" INTEGER NOT NULL DEFAULT 2048,
    "maxSearchCalls" INTEGER NOT NULL DEFAULT 3,
    "breakerWindowSize" INTEGER NOT NULL DEFAULT 20,
    "breakerMinCalls" INTEGER NOT NULL DEFAULT 10,
    "breakerFailureRatePct" INTEGER NOT NULL DEFAULT 50,
    "breakerOpenSeconds" INTEGER NOT NULL DEFAULT 45,
    "breakerSlowCallMs" INTEGER NOT NULL DEFAULT 60000,
    "breakerSlowCallIsFailure" BOOLEAN NOT NULL DEFAULT false,
    "breakerProbeTimeoutMs" INTEGER NOT NULL DEFAULT 15000,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "grantedToAll" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_connections_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "provider_connections" ALTER COLUMN "models" SET NOT NULL, ALTER COLUMN "models" SET DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE UNIQUE INDEX "provider_connections_name_key" ON "provider_connections"("name");

-- CreateTable
CREATE TABLE "connection_grants" (
    "connectionId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "monthlySpendLimitMicros" BIGINT,
    "grantedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connection_grants_pkey" PRIMARY KEY ("connectionId","workspaceId")
);

-- CreateIndex
CREATE INDEX "connection_grants_workspaceId_idx" ON "connection_grants"("workspaceId");

-- CreateTable: what a workspace spends on a connection per month (its grant's limit is a hard cap).
CREATE TABLE "grant_spend_periods" (
    "connectionId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "periodStart" DATE NOT NULL,
    "inFlightMicros" BIGINT NOT NULL DEFAULT 0,
    "chargedMicros" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grant_spend_periods_pkey" PRIMARY KEY ("connectionId","workspaceId","periodStart")
);

-- AddForeignKey
ALTER TABLE "connection_grants" ADD CONSTRAINT "connection_grants_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "connection_grants" ADD CONSTRAINT "connection_grants_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "grant_spend_periods" ADD CONSTRAINT "grant_spend_periods_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "grant_spend_periods" ADD CONSTRAINT "grant_spend_periods_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data: one connection per simulator style and one per real adapter, named as the defaults in
-- lib/connections/defaults.ts (which adds the ones missing here on every `npm run migrate`), with
-- the settings of the oldest configuration of that kind and every model in use as allowlist.
WITH kinds AS (
  SELECT pc.*,
         CASE pc.adapter
           WHEN 'simulator' THEN 'Simulated ' || CASE coalesce(pc.settings->>'style', 'chatgpt')
             WHEN 'perplexity' THEN 'Perplexity' WHEN 'gemini' THEN 'Gemini' WHEN 'claude' THEN 'Claude' ELSE 'ChatGPT' END
           WHEN 'openai' THEN 'OpenAI' WHEN 'perplexity' THEN 'Perplexity' WHEN 'gemini' THEN 'Gemini' ELSE 'Anthropic' END AS connection_name
  FROM "provider_configs" pc
), firsts AS (
  SELECT DISTINCT ON (connection_name) * FROM kinds ORDER BY connection_name, "createdAt", id
)
INSERT INTO "provider_connections" ("name", "adapter", "models", "inputPricePerMTokMicros", "outputPricePerMTokMicros", "cachedPricePerMTokMicros",
  "reasoningPricePerMTokMicros", "searchPriceMicros", "maxConcurrency", "maxAttempts", "unknownRetries", "timeoutMs", "maxOutputTokens", "maxSearchCalls",
  "breakerWindowSize", "breakerMinCalls", "breakerFailureRatePct", "breakerOpenSeconds", "breakerSlowCallMs", "breakerSlowCallIsFailure", "breakerProbeTimeoutMs",
  "settings", "grantedToAll")
SELECT f.connection_name, f.adapter, ARRAY(SELECT DISTINCT k.model FROM kinds k WHERE k.connection_name = f.connection_name ORDER BY 1),
  f."inputPricePerMTokMicros", f."outputPricePerMTokMicros", f."cachedPricePerMTokMicros", f."reasoningPricePerMTokMicros", f."searchPriceMicros",
  f."maxConcurrency", f."maxAttempts", f."unknownRetries", f."timeoutMs", f."maxOutputTokens", f."maxSearchCalls",
  f."breakerWindowSize", f."breakerMinCalls", f."breakerFailureRatePct", f."breakerOpenSeconds", f."breakerSlowCallMs", f."breakerSlowCallIsFailure", f."breakerProbeTimeoutMs",
  f.settings, f.adapter = 'simulator'
FROM firsts f;

-- AlterTable: a workspace's provider points at its connection.
ALTER TABLE "provider_configs" ADD COLUMN "connectionId" UUID;
UPDATE "provider_configs" pc SET "connectionId" = c.id
FROM "provider_connections" c
WHERE c.name = CASE pc.adapter
  WHEN 'simulator' THEN 'Simulated ' || CASE coalesce(pc.settings->>'style', 'chatgpt')
    WHEN 'perplexity' THEN 'Perplexity' WHEN 'gemini' THEN 'Gemini' WHEN 'claude' THEN 'Claude' ELSE 'ChatGPT' END
  WHEN 'openai' THEN 'OpenAI' WHEN 'perplexity' THEN 'Perplexity' WHEN 'gemini' THEN 'Gemini' ELSE 'Anthropic' END;
ALTER TABLE "provider_configs" ALTER COLUMN "connectionId" SET NOT NULL;

-- Real connections are granted only to the workspaces that already called them; every other
-- workspace's provider on a real API is disabled until an operator grants the connection.
INSERT INTO "connection_grants" ("connectionId", "workspaceId")
SELECT DISTINCT pc."connectionId", pc."workspaceId" FROM "provider_configs" pc
WHERE pc.adapter <> 'simulator' AND EXISTS (SELECT 1 FROM "captures" c WHERE c."providerConfigId" = pc.id);
UPDATE "provider_configs" pc SET enabled = false
WHERE pc.adapter <> 'simulator'
  AND NOT EXISTS (SELECT 1 FROM "connection_grants" g WHERE g."connectionId" = pc."connectionId" AND g."workspaceId" = pc."workspaceId");

-- Captures count against their connection's cap.
ALTER TABLE "captures" ADD COLUMN "connectionId" UUID;
UPDATE "captures" c SET "connectionId" = pc."connectionId" FROM "provider_configs" pc WHERE pc.id = c."providerConfigId";
ALTER TABLE "captures" ALTER COLUMN "connectionId" SET NOT NULL;
DROP INDEX "captures_status_providerConfigId_idx";
CREATE INDEX "captures_status_connectionId_idx" ON "captures"("status", "connectionId");
CREATE INDEX "captures_connectionId_status_workspaceId_idx" ON "captures"("connectionId", "status", "workspaceId");
ALTER TABLE "captures" ADD CONSTRAINT "captures_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "provider_configs" ADD CONSTRAINT "provider_configs_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The workspace's provider keeps only its own choices.
ALTER TABLE "provider_configs" DROP COLUMN "adapter",
DROP COLUMN "inputPricePerMTokMicros", DROP COLUMN "outputPricePerMTokMicros", DROP COLUMN "cachedPricePerMTokMicros",
DROP COLUMN "reasoningPricePerMTokMicros", DROP COLUMN "searchPriceMicros", DROP COLUMN "maxConcurrency", DROP COLUMN "maxAttempts",
DROP COLUMN "unknownRetries", DROP COLUMN "timeoutMs", DROP COLUMN "maxOutputTokens", DROP COLUMN "maxSearchCalls",
DROP COLUMN "breakerWindowSize", DROP COLUMN "breakerMinCalls", DROP COLUMN "breakerFailureRatePct", DROP COLUMN "breakerOpenSeconds",
DROP COLUMN "breakerSlowCallMs", DROP COLUMN "breakerSlowCallIsFailure", DROP COLUMN "breakerProbeTimeoutMs", DROP COLUMN "settings";

-- Breakers are per connection and model, shared by every workspace (their state is transient:
-- they start closed).
DROP TABLE "breaker_states";
CREATE TABLE "breaker_states" (
    "connectionId" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "status" "BreakerStatus" NOT NULL DEFAULT 'closed',
    "recentFailures" BOOLEAN[] NOT NULL DEFAULT ARRAY[]::BOOLEAN[],
    "openedAt" TIMESTAMP(3),
    "openUntil" TIMESTAMP(3),
    "probeToken" UUID,
    "probeStartedAt" TIMESTAMP(3),
    "forcedStatus" "BreakerStatus",
    "shortCircuitCount" BIGINT NOT NULL DEFAULT 0,
    "successCount" BIGINT NOT NULL DEFAULT 0,
    "failureCount" BIGINT NOT NULL DEFAULT 0,
    "slowCallCount" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "breaker_states_pkey" PRIMARY KEY ("connectionId","model")
);
ALTER TABLE "breaker_states" ADD CONSTRAINT "breaker_states_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Instance-wide events (breaker transitions of a connection) belong to no workspace.
ALTER TABLE "events" ALTER COLUMN "workspaceId" DROP NOT NULL;
