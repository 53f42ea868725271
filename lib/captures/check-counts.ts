import "server-only";
import { TERMINAL_STATUSES, WAITING_STATUSES, type CheckCounts as StatusCounts } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

/** How many captures of a check are in each bucket of the progress bar. */
export type CheckCounts = StatusCounts & {
  /** Of the queued ones (queued, retry_wait, postponed): postponed until the budget covers their next call. */
  waitingForBudget: number;
};

/** A check's counts and the budget its unfinished captures still hold. */
export type CheckTally = CheckCounts & { reservedMicros: bigint };

export const NO_CAPTURES: CheckCounts = { total: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, waitingForBudget: 0 };

/**
 * The one reader of checks' capture counts (the check list, the check page, the REST API and
 * finishing a check come here): counted from the captures in one statement over the index on
 * captures ("checkId", status). Nothing keeps them on the check row: a row that every transition
 * of every capture wrote was where the captures of a large check queued. Not scoped by
 * workspace: callers pass ids of checks they have already read in the caller's workspace. Every
 * id asked for is in the map.
 */
export async function checkTallies(checkIds: string[], client: Pick<Prisma.TransactionClient, "$queryRaw"> = db()): Promise<Map<string, CheckTally>> {
  const tallies = new Map<string, CheckTally>(checkIds.map((id) => [id, { ...NO_CAPTURES, reservedMicros: 0n }]));
  if (!checkIds.length) return tallies;
  const rows = await client.$queryRaw<(CheckTally & { checkId: string })[]>`
    SELECT "checkId",
           count(*) FILTER (WHERE status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[]))::int AS queued,
           count(*) FILTER (WHERE status = 'running')::int AS running,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
           count(*)::int AS total,
           count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget')::int AS "waitingForBudget",
           coalesce(sum("reservedMicros") FILTER (WHERE status <> ALL(${[...TERMINAL_STATUSES]}::"CaptureStatus"[])), 0)::bigint AS "reservedMicros"
    FROM captures WHERE "checkId" = ANY(${checkIds}::uuid[])
    GROUP BY "checkId"`;
  for (const { checkId, ...tally } of rows) tallies.set(checkId, tally);
  return tallies;
}

/** One check's tally (see checkTallies). */
export async function checkTally(checkId: string, client: Pick<Prisma.TransactionClient, "$queryRaw"> = db()): Promise<CheckTally> {
  return (await checkTallies([checkId], client)).get(checkId)!;
}

/** The counts of a tally, for the browser and the API (without the bigint). */
export function countsOf({ reservedMicros: _, ...counts }: CheckTally): CheckCounts {
  return counts;
}
