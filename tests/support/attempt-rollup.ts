// rollup_attempts (the Costs page's ended attempts per day, provider and prompt) beside the same
// sums computed from the attempts' rows: the oracle of the property test, the migration test
// and the chaos test. Plain SQL, so a test on a partly migrated database can run it too.
import { db } from "@/lib/db/prisma";

const COLUMNS = `"workspaceId"::text, "brandId"::text, day::text, "providerConfigId"::text, "promptId"::text, attempts::int, "costMicros"::text,
  "wastedMicros"::text, "wastedAttempts"::int, "chargedWastedAttempts"::int, "unknownAttempts"::int, "unknownCostMicros"::text, "estimatedCostMicros"::text`;

/** The rollup's rows of a workspace, in key order (rows left at zero by nothing: each row counts at least one attempt). */
export const KEPT_SQL = `SELECT ${COLUMNS} FROM rollup_attempts WHERE "workspaceId" = $1::uuid ORDER BY 1, 2, 3, 4, 5`;

/** The same from the workspace's ended attempts. */
export const REBUILT_SQL = `
  SELECT ${COLUMNS} FROM (
    SELECT a."workspaceId", c."brandId", a."startedAt"::date AS day, c."providerConfigId", c."promptId",
      count(*) AS attempts,
      sum(a."costMicros") AS "costMicros",
      coalesce(sum(a."costMicros") FILTER (WHERE a.outcome <> 'succeeded'), 0) AS "wastedMicros",
      count(*) FILTER (WHERE a.outcome <> 'succeeded') AS "wastedAttempts",
      count(*) FILTER (WHERE a.outcome <> 'succeeded' AND a."costMicros" > 0) AS "chargedWastedAttempts",
      count(*) FILTER (WHERE a.outcome = 'unknown') AS "unknownAttempts",
      coalesce(sum(a."costMicros") FILTER (WHERE a.outcome = 'unknown'), 0) AS "unknownCostMicros",
      coalesce(sum(a."costMicros") FILTER (WHERE a."costIsEstimate"), 0) AS "estimatedCostMicros"
    FROM attempts a JOIN captures c ON c.id = a."captureId"
    WHERE a."workspaceId" = $1::uuid AND a.outcome IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5
  ) s ORDER BY 1, 2, 3, 4, 5`;

export type AttemptRollupRow = Record<string, string | number>;

/** The workspace's rollup rows and their rebuild from its ended attempts. */
export async function attemptRollupAndRebuild(workspaceId: string): Promise<{ kept: AttemptRollupRow[]; rebuilt: AttemptRollupRow[] }> {
  const [kept, rebuilt] = await Promise.all([
    db().$queryRawUnsafe<AttemptRollupRow[]>(KEPT_SQL, workspaceId),
    db().$queryRawUnsafe<AttemptRollupRow[]>(REBUILT_SQL, workspaceId),
  ]);
  return { kept, rebuilt };
}
