import "server-only";
import { pausePoint } from "@/lib/db/pause-points";
import { addDays, isoDay, startOfUtcDay } from "@/lib/analytics/schemas";
import { promptScope, type AnalyticsFilter } from "@/lib/analytics/filter";
import { ANSWER_SOURCES, type AnswerSource } from "@/lib/analytics/rollup-tables";
import { Prisma } from "@/lib/generated/prisma/client";

// The rollups the dashboards read, each declared once in ROLLUPS (lib/analytics/rollup-tables.ts;
// the tables in prisma/schema.prisma). A capture's contribution is defined once, in SQL generated
// from that list: the function beacon_rollup_captures(ids, sign) (prisma/sql/functions), which
// reads the capture's raw rows. Whoever writes those raw rows calls it in the same transaction:
// - a capture's success (lib/lifecycle/results.ts) and the demo history add;
// - a re-analysis batch rewrites (take away, change, add again: staged, then written in one pass);
//   a competitor's removal leaves its mention rows to the re-analysis it queues (lib/brands/brands.ts).
// Attempt retention deletes no raw row the rollups come from; rollups are never deleted with it.

type Tx = Prisma.TransactionClient;

/**
 * Batches plan beacon_rollup_captures' statements with their values: a generic plan (what a
 * single capture's success uses, beacon_succeed) expects a few ids and took 4.5 times as long over
 * 50,000 (`npm run bench -- --analytics-scale`). For the rest of the transaction.
 */
const customPlans = (tx: Tx) => tx.$executeRaw`SELECT set_config('plan_cache_mode', 'force_custom_plan', true)`;

/** Adds the contribution of these captures (succeeded ones; others are ignored). */
export async function recordRollups(tx: Tx, captureIds: string[]): Promise<void> {
  if (!captureIds.length) return;
  await customPlans(tx);
  await tx.$executeRaw`SELECT beacon_rollup_captures(${captureIds}::uuid[], 1)`;
}

/**
 * Runs `change`, which rewrites the raw rows of these captures (mentions, candidates, citation
 * flags), with their contribution taken away before and added back after, so the rollups follow.
 * Both are staged in temporary tables (beacon_rollup_stage) and written at the end in one pass,
 * in the lock order (beacon_rollup_apply_stage): taking the old contribution away from the
 * rollups first held those rows through `change`, and adding the new one then took rows out of
 * order (a name, domain or tag row the old one did not have), which deadlocked with a success or
 * a re-tagging beside it. Rows a rewrite leaves at zero (an entity or candidate no answer names
 * any more, a domain an answer no longer cites, an answer no longer a gap answer: each rollup's
 * family's `prunedBy` column is zero then) are removed, as their raw rows were. rollup_answers
 * keeps its rows: a rewrite keeps every answer. `sources`: the kinds of raw rows `change` may
 * rewrite; only the rollups that read one of them are staged (the rest cannot change).
 */
export async function rewriteRollups<T>(tx: Tx, captureIds: string[], change: () => Promise<T>, sources: readonly AnswerSource[] = ANSWER_SOURCES): Promise<T> {
  if (!captureIds.length) return change();
  await customPlans(tx);
  await tx.$executeRaw`SELECT beacon_rollup_stage(${captureIds}::uuid[], -1, ${sources}::text[])`;
  await pausePoint("rollups:old-staged", { tx });
  const result = await change();
  await tx.$executeRaw`SELECT beacon_rollup_stage(${captureIds}::uuid[], 1, ${sources}::text[])`;
  await pausePoint("rollups:new-staged", { tx });
  await tx.$executeRaw`SELECT beacon_rollup_apply_stage()`;
  return result;
}

/**
 * The days of a filter: rollups count whole UTC days, and every filter the dashboards build
 * starts and ends at midnight (lib/analytics/schemas.ts), so [from, to) is exactly a day range.
 */
function days(f: AnalyticsFilter): { first: string; end: string } {
  for (const d of [f.from, f.to]) {
    if (startOfUtcDay(d).getTime() !== d.getTime()) throw new Error(`Analytics ranges are whole UTC days, got ${d.toISOString()}`);
  }
  return { first: isoDay(f.from), end: isoDay(f.to) };
}

/** The WHERE clause of the rollup rows in scope, for a query that names a rollup table `r`. */
export function rollupScope(f: AnalyticsFilter): Prisma.Sql {
  const { first, end } = days(f);
  return Prisma.sql`${keyScope(f)} AND r.day >= ${first}::date AND r.day < ${end}::date`;
}

/** The same for a weekly rollup (its `week` column): the weeks that start in [first, end). */
export function weekRollupScope(f: AnalyticsFilter, weeks: { first: string; end: string }): Prisma.Sql {
  return Prisma.sql`${keyScope(f)} AND r.week >= ${weeks.first}::date AND r.week < ${weeks.end}::date`;
}

/** The same for a monthly rollup (its `month` column): the months that start in [first, end). */
export function monthRollupScope(f: AnalyticsFilter, months: { first: string; end: string }): Prisma.Sql {
  return Prisma.sql`${keyScope(f)} AND r.month >= ${months.first}::date AND r.month < ${months.end}::date`;
}

function keyScope(f: AnalyticsFilter): Prisma.Sql {
  const providers = f.providerConfigIds?.length ? Prisma.sql`AND r."providerConfigId" = ANY(${f.providerConfigIds}::uuid[])` : Prisma.empty;
  return Prisma.sql`r."workspaceId" = ${f.workspaceId}::uuid AND r."brandId" = ${f.brandId}::uuid
    ${providers} ${promptScope(f, Prisma.sql`r."promptId"`)}`;
}

/**
 * The whole ISO weeks (Monday to Sunday) inside the filter's days, as the range of their Mondays
 * [first, end) and the days before and after them, or null when no whole week fits.
 */
export function wholeWeeks(f: AnalyticsFilter): { weeks: { first: string; end: string }; head: AnalyticsFilter; tail: AnalyticsFilter } | null {
  days(f);
  const monday = (d: Date) => addDays(d, -((d.getUTCDay() + 6) % 7));
  const start = monday(f.from).getTime() === f.from.getTime() ? f.from : addDays(monday(f.from), 7);
  const end = monday(f.to);
  if (start >= end) return null;
  return { weeks: { first: isoDay(start), end: isoDay(end) }, head: { ...f, to: start }, tail: { ...f, from: end } };
}
