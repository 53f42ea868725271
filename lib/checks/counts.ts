import "server-only";
import { TERMINAL_STATUSES, WAITING_STATUSES, type CheckCounts } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

export type CheckTally = CheckCounts & {
  /** Budget still held for its unfinished captures. */
  reservedMicros: bigint;
};

const NOTHING: CheckTally = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, total: 0, reservedMicros: 0n };

/**
 * Each check's captures counted by status (queued counts every waiting capture), and the budget
 * its unfinished ones hold, read from the captures in one statement (index on captures
 * ("checkId", status)). Nothing keeps these on the check row: a row every transition of every
 * capture wrote was where the captures of a large check queued.
 */
export async function checkTallies(checkIds: string[], client: Pick<Prisma.TransactionClient, "$queryRaw"> = db()): Promise<Map<string, CheckTally>> {
  const tallies = new Map<string, CheckTally>(checkIds.map((id) => [id, { ...NOTHING }]));
  if (!checkIds.length) return tallies;
  const rows = await client.$queryRaw<(CheckTally & { checkId: string })[]>`
    SELECT "checkId",
           count(*) FILTER (WHERE status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[]))::int AS queued,
           count(*) FILTER (WHERE status = 'running')::int AS running,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
           count(*)::int AS total,
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
