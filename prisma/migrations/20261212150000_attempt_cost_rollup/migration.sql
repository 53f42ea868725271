-- The Costs page summed raw attempts joined to their captures: 1.5 s a statement at a million
-- attempts (docs/benchmarks.md, "The pages at 1,000,000 captures"). rollup_attempts keeps the
-- ended attempts' sums per UTC day of their start, provider and prompt; the triggers
-- attempts_cost_rollup_closed and attempts_cost_rollup_inserted (prisma/sql) keep it from now on.
--
-- Built here from the ended attempts there are (retention has removed older ones: their spend is
-- gone from the raw rows and the page never showed it). Upgrades run with the workers stopped
-- (docs/operating.md), so no attempt ends between this and the triggers' creation.

CREATE TABLE "rollup_attempts" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "costMicros" BIGINT NOT NULL DEFAULT 0,
    "wastedMicros" BIGINT NOT NULL DEFAULT 0,
    "wastedAttempts" INTEGER NOT NULL DEFAULT 0,
    "chargedWastedAttempts" INTEGER NOT NULL DEFAULT 0,
    "unknownAttempts" INTEGER NOT NULL DEFAULT 0,
    "unknownCostMicros" BIGINT NOT NULL DEFAULT 0,
    "estimatedCostMicros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_attempts_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId")
);
ALTER TABLE "rollup_attempts" ADD CONSTRAINT "rollup_attempts_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_attempts" ADD CONSTRAINT "rollup_attempts_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_attempts" ADD CONSTRAINT "rollup_attempts_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_attempts" ADD CONSTRAINT "rollup_attempts_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

INSERT INTO rollup_attempts ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "attempts", "costMicros", "wastedMicros",
  "wastedAttempts", "chargedWastedAttempts", "unknownAttempts", "unknownCostMicros", "estimatedCostMicros")
SELECT a."workspaceId", c."brandId", a."startedAt"::date, c."providerConfigId", c."promptId",
  count(*),
  sum(a."costMicros"),
  coalesce(sum(a."costMicros") FILTER (WHERE a.outcome <> 'succeeded'), 0),
  count(*) FILTER (WHERE a.outcome <> 'succeeded'),
  count(*) FILTER (WHERE a.outcome <> 'succeeded' AND a."costMicros" > 0),
  count(*) FILTER (WHERE a.outcome = 'unknown'),
  coalesce(sum(a."costMicros") FILTER (WHERE a.outcome = 'unknown'), 0),
  coalesce(sum(a."costMicros") FILTER (WHERE a."costIsEstimate"), 0)
FROM attempts a JOIN captures c ON c.id = a."captureId"
WHERE a.outcome IS NOT NULL
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1, 2, 3, 4, 5;
