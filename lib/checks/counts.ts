import "server-only";
import { db } from "@/lib/db/prisma";

/** How many captures of a check are in each bucket of the progress bar. */
export type CheckCounts = {
  total: number;
  /** queued, retry_wait and postponed */
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  /** Of the queued ones: postponed until the budget covers their next call. */
  waitingForBudget: number;
};

export const NO_CAPTURES: CheckCounts = { total: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, waitingForBudget: 0 };

/**
 * The one place that reads a check's capture counts: the check list, the check page and the REST
 * API all come here, so changing where counts live (today the per-status columns kept by the
 * captures_count_status_changes trigger; later counts derived from captures("checkId", status))
 * is a change of this function alone. Not scoped by workspace: callers pass ids of checks they
 * have already read in the caller's workspace. Unknown ids are absent from the map.
 */
export async function checkCounts(checkIds: string[]): Promise<Map<string, CheckCounts>> {
  if (!checkIds.length) return new Map();
  const rows = await db().$queryRaw<
    { id: string; total: number; queued: number; running: number; succeeded: number; failed: number; cancelled: number; waitingForBudget: bigint }[]
  >`
    SELECT k.id, k."totalCaptures" AS total, k."queuedCount" AS queued, k."runningCount" AS running,
           k."succeededCount" AS succeeded, k."failedCount" AS failed, k."cancelledCount" AS cancelled,
           (SELECT count(*) FROM captures c
             WHERE c."checkId" = k.id AND c.status = 'postponed' AND c."waitingFor" = 'budget') AS "waitingForBudget"
      FROM checks k
     WHERE k.id = ANY(${checkIds}::uuid[])`;
  return new Map(rows.map((r) => [r.id, { ...r, waitingForBudget: Number(r.waitingForBudget) }]));
}
