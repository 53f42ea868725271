import "server-only";
import { db } from "@/lib/db/prisma";

/**
 * What each check has spent: the cost of every attempt so far, accepted or not (estimates
 * included), those retention deleted too (`checks.retiredAttemptMicros`). In one statement, so
 * one snapshot: a retention batch moves its attempts' cost from the attempts to their check in
 * one transaction, and two reads (the check, then its attempts) could fall on either side of it
 * and count that cost twice or not at all.
 */
export async function spentByCheck(checkIds: string[]): Promise<Map<string, bigint>> {
  if (!checkIds.length) return new Map();
  const rows = await db().$queryRaw<{ id: string; micros: bigint }[]>`
    SELECT ch.id, ch."retiredAttemptMicros" + coalesce((
      SELECT sum(a."costMicros") FROM attempts a JOIN captures c ON c.id = a."captureId" WHERE c."checkId" = ch.id), 0)::bigint AS micros
    FROM checks ch WHERE ch.id = ANY(${checkIds}::uuid[])`;
  return new Map(rows.map((r) => [r.id, r.micros]));
}
