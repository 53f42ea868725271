import "server-only";
import { bucketKeys, bucketOf, bucketUnit, num, providerAndTagScope, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { isoDay } from "@/lib/analytics/schemas";
import { budgetStatus, moneyUsed } from "@/lib/billing/budget";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

/** One provider's sums over the range's attempts, as the Costs statements return them. */
export type CostProviderRow = {
  provider: string;
  attempts: number;
  spent: bigint;
  wasted: bigint;
  wasted_attempts: number;
  charged_wasted_attempts: number;
  unknown: number;
  unknown_cost: bigint;
  estimated_cost: bigint;
};

/**
 * Money by attempt, the unit of cost: attempts started in [from, to), of captures of the brand
 * (and of the chosen providers and tags), whatever became of the capture. Cost per accepted
 * capture divides that by the captures that succeeded in the range; retry waste is the cost of
 * attempts that did not succeed (`wastedAttempts` of them, `chargedWastedAttempts` at a cost: a
 * call refused before the provider did any work costs nothing and wastes nothing); unknown
 * outcomes carry estimated costs. Ended attempts come from their rollup (rollup_attempts, one
 * row per day of their start, provider and prompt), which keeps them after retention deleted
 * their rows; the few still running (outcome NULL, found through its index) from their rows.
 */
export async function costsDashboard({ filter: f, providers }: ResolvedFilter) {
  const running = Prisma.sql`
    SELECT a."startedAt" AS at, c."providerConfigId" AS provider, 1 AS attempts, a."costMicros" AS spent, 0::bigint AS wasted,
      0 AS wasted_attempts, 0 AS charged_wasted_attempts, 0 AS unknown, 0::bigint AS unknown_cost,
      CASE WHEN a."costIsEstimate" THEN a."costMicros" ELSE 0 END AS estimated_cost
    FROM attempts a JOIN captures c ON c.id = a."captureId"
    WHERE a.outcome IS NULL AND a."workspaceId" = ${f.workspaceId}::uuid
      AND a."startedAt" >= ${f.from}::timestamp AND a."startedAt" < ${f.to}::timestamp
      AND c."workspaceId" = ${f.workspaceId}::uuid AND c."brandId" = ${f.brandId}::uuid
      ${providerAndTagScope(f)}`;
  const ended = Prisma.sql`
    SELECT r.day::timestamp AS at, r."providerConfigId" AS provider, r.attempts, r."costMicros" AS spent, r."wastedMicros" AS wasted,
      r."wastedAttempts" AS wasted_attempts, r."chargedWastedAttempts" AS charged_wasted_attempts, r."unknownAttempts" AS unknown,
      r."unknownCostMicros" AS unknown_cost, r."estimatedCostMicros" AS estimated_cost
    FROM rollup_attempts r WHERE ${rollupScope(f)}`;
  const [daily, perProvider, accepted, budget] = await Promise.all([
    readDb().$queryRaw<{ bucket: Date; provider: string; spent: bigint }[]>`
      SELECT ${bucketOf(f, Prisma.sql`at`)} AS bucket, provider::text AS provider, sum(spent)::bigint AS spent
      FROM (${ended} UNION ALL ${running}) s
      GROUP BY 1, 2`,
    readDb().$queryRaw<CostProviderRow[]>`
      SELECT provider::text AS provider,
        sum(attempts)::int AS attempts,
        sum(spent)::bigint AS spent,
        sum(wasted)::bigint AS wasted,
        sum(wasted_attempts)::int AS wasted_attempts,
        sum(charged_wasted_attempts)::int AS charged_wasted_attempts,
        sum(unknown)::int AS unknown,
        sum(unknown_cost)::bigint AS unknown_cost,
        sum(estimated_cost)::bigint AS estimated_cost
      FROM (${ended} UNION ALL ${running}) s
      GROUP BY 1`,
    acceptedCaptures(f),
    budgetStatus(f.workspaceId),
  ]);

  return assembleCosts(f, providers, { daily, perProvider, accepted, budget });
}

/**
 * The accepted captures per provider, from their rollup (one row per day, provider and prompt),
 * not from the captures: a year of them is a million rows at scale.
 */
export function acceptedCaptures(f: ResolvedFilter["filter"]) {
  return readDb().$queryRaw<{ provider: string; captures: number }[]>`
    SELECT r."providerConfigId"::text AS provider, sum(r.captures)::int AS captures
    FROM rollup_answers r WHERE ${rollupScope(f)}
    GROUP BY 1
    HAVING sum(r.captures) > 0`;
}

/**
 * The Costs page from its statements' rows: per provider (sorted by name, a deleted one named so),
 * the totals and the spend per bucket. Shared with the raw-attempt form the tests hold it to.
 */
export function assembleCosts(
  f: ResolvedFilter["filter"],
  providers: ResolvedFilter["providers"],
  rows: {
    daily: { bucket: Date; provider: string; spent: bigint }[];
    perProvider: CostProviderRow[];
    accepted: { provider: string; captures: number }[];
    budget: Awaited<ReturnType<typeof budgetStatus>>;
  },
) {
  const { daily, perProvider, accepted, budget } = rows;
  const names = new Map(providers.map((p) => [p.id, p.name]));
  const acceptedBy = new Map(accepted.map((r) => [r.provider, num(r.captures)]));
  const rowsBy = new Map(perProvider.map((r) => [r.provider, r]));
  const ids = [...new Set([...rowsBy.keys(), ...acceptedBy.keys()])].sort((a, b) => (names.get(a) ?? a).localeCompare(names.get(b) ?? b));
  const line = (r: CostProviderRow | undefined, captures: number) => {
    const spent = num(r?.spent);
    return {
      attempts: num(r?.attempts),
      spentMicros: spent,
      acceptedCaptures: captures,
      costPerAcceptedMicros: captures ? spent / captures : null,
      retryWasteMicros: num(r?.wasted),
      wastedAttempts: num(r?.wasted_attempts),
      chargedWastedAttempts: num(r?.charged_wasted_attempts),
      unknownOutcomes: num(r?.unknown),
      unknownCostMicros: num(r?.unknown_cost),
      estimatedCostMicros: num(r?.estimated_cost),
    };
  };
  const byProvider = ids.map((id) => ({ id, name: names.get(id) ?? "Deleted provider", ...line(rowsBy.get(id), acceptedBy.get(id) ?? 0) }));
  const sum = (pick: (p: (typeof byProvider)[number]) => number) => byProvider.reduce((total, p) => total + pick(p), 0);
  const acceptedCaptures = sum((p) => p.acceptedCaptures);
  const spentMicros = sum((p) => p.spentMicros);
  const totals = {
    attempts: sum((p) => p.attempts),
    spentMicros,
    acceptedCaptures,
    costPerAcceptedMicros: acceptedCaptures ? spentMicros / acceptedCaptures : null,
    retryWasteMicros: sum((p) => p.retryWasteMicros),
    wastedAttempts: sum((p) => p.wastedAttempts),
    chargedWastedAttempts: sum((p) => p.chargedWastedAttempts),
    unknownOutcomes: sum((p) => p.unknownOutcomes),
    unknownCostMicros: sum((p) => p.unknownCostMicros),
    estimatedCostMicros: sum((p) => p.estimatedCostMicros),
  };

  const spend = new Map<string, Map<string, number>>();
  for (const r of daily) {
    const key = isoDay(r.bucket);
    if (!spend.has(key)) spend.set(key, new Map());
    spend.get(key)!.set(r.provider, num(r.spent));
  }
  const spentProviders = byProvider.filter((p) => p.attempts > 0).map((p) => ({ id: p.id, name: p.name }));
  const points = bucketKeys(f).map((bucket) => ({
    bucket,
    spentMicros: Object.fromEntries(spentProviders.map((p) => [p.id, spend.get(bucket)?.get(p.id) ?? 0])),
  }));

  return {
    unit: bucketUnit(f),
    daily: { providers: spentProviders, points },
    byProvider,
    totals,
    budget: { ...budget, usedMicros: moneyUsed(budget, "hold"), month: isoDay(budget.period).slice(0, 7) },
  };
}

export type CostsDashboard = Awaited<ReturnType<typeof costsDashboard>>;
