-- The budget and grant ledgers in shards (lib/billing/budget.ts). Every claim and every result of
-- a workspace wrote its one budget_periods row (and its grant's grant_spend_periods row), so the
-- captures of a workspace queued on them. A month's totals are now the sums over its shard rows:
-- shard 0 is the admission row, which claims and holds lock to decide against the limit (they
-- may only add what fits, so they take turns); results, which only give back (a call is charged
-- at most the worst case it reserved), add their deltas to one of the other shards, without
-- waiting for a claim or for most other results. A shard row's sums may be negative; their totals
-- are not. Existing rows become shard 0.
ALTER TABLE "budget_periods" ADD COLUMN "shard" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "budget_periods" DROP CONSTRAINT "budget_periods_pkey";
ALTER TABLE "budget_periods" ADD CONSTRAINT "budget_periods_pkey" PRIMARY KEY ("workspaceId", "periodStart", "shard");

ALTER TABLE "grant_spend_periods" ADD COLUMN "shard" SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE "grant_spend_periods" DROP CONSTRAINT "grant_spend_periods_pkey";
ALTER TABLE "grant_spend_periods" ADD CONSTRAINT "grant_spend_periods_pkey" PRIMARY KEY ("connectionId", "workspaceId", "periodStart", "shard");
