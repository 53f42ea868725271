-- Alerts (issue 12): rules a workspace keeps, the channels it is told through, each firing with
-- the numbers behind it, and each delivery of a message to a channel (durable, retried).
CREATE TYPE "AlertChannelKind" AS ENUM ('email', 'slack', 'webhook');
CREATE TYPE "AlertRuleKind" AS ENUM ('metric_change', 'competitor_overtook', 'new_brand', 'own_page_dropped', 'breaker_open', 'budget');
CREATE TYPE "AlertDeliveryKind" AS ENUM ('firing', 'test', 'digest');
CREATE TYPE "AlertDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateTable
CREATE TABLE "alert_channels" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "kind" "AlertChannelKind" NOT NULL,
    "name" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "secret" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "brandId" UUID,
    "name" TEXT NOT NULL,
    "kind" "AlertRuleKind" NOT NULL,
    "params" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdById" TEXT,
    "lastEvaluatedAt" TIMESTAMP(3),
    "lastResult" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rule_channels" (
    "ruleId" UUID NOT NULL,
    "channelId" UUID NOT NULL,

    CONSTRAINT "alert_rule_channels_pkey" PRIMARY KEY ("ruleId","channelId")
);

-- CreateTable
CREATE TABLE "alert_firings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "ruleId" UUID NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "facts" JSONB NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_firings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "firingId" UUID,
    "kind" "AlertDeliveryKind" NOT NULL,
    "message" JSONB NOT NULL,
    "status" "AlertDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "responseStatus" INTEGER,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "alert_channels_workspaceId_name_key" ON "alert_channels"("workspaceId", "name");
CREATE INDEX "alert_rules_workspaceId_idx" ON "alert_rules"("workspaceId");
CREATE INDEX "alert_rule_channels_channelId_idx" ON "alert_rule_channels"("channelId");
-- One firing per rule and piece of evidence (the periods compared, the prompt, the brand named):
-- an evaluation that runs twice fires once.
CREATE UNIQUE INDEX "alert_firings_ruleId_dedupeKey_key" ON "alert_firings"("ruleId", "dedupeKey");
CREATE INDEX "alert_firings_workspaceId_firedAt_idx" ON "alert_firings"("workspaceId", "firedAt");
CREATE INDEX "alert_deliveries_workspaceId_createdAt_idx" ON "alert_deliveries"("workspaceId", "createdAt");
CREATE INDEX "alert_deliveries_channelId_idx" ON "alert_deliveries"("channelId");
CREATE INDEX "alert_deliveries_firingId_idx" ON "alert_deliveries"("firingId");

-- AddForeignKey
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_rule_channels" ADD CONSTRAINT "alert_rule_channels_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_firingId_fkey" FOREIGN KEY ("firingId") REFERENCES "alert_firings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
