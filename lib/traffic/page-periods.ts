import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The upsert of a per-page weekly or monthly rollup from the rows `g` (day, domain, path and the
 * measures) of the statement it sits in, for storeHits (crawls) and addVisits (visits): the
 * period's groups in key order (two writers lock rows in the same order), each measure added to
 * what the row holds.
 */
export function pagePeriodUpsert(workspaceId: string, table: string, period: "week" | "month", measures: string[]): Prisma.Sql {
  const t = Prisma.raw(table);
  const p = Prisma.raw(period);
  const list = Prisma.raw(measures.join(", "));
  const sums = Prisma.raw(measures.map((m) => `sum(${m})`).join(", "));
  const adds = Prisma.raw(measures.map((m) => `${m} = ${table}.${m} + EXCLUDED.${m}`).join(", "));
  return Prisma.sql`
    INSERT INTO ${t} ("workspaceId", ${p}, domain, path, ${list})
    SELECT ${workspaceId}::uuid, date_trunc(${Prisma.raw(`'${period}'`)}, day)::date, domain, path, ${sums} FROM g
    GROUP BY 2, domain, path
    ORDER BY 2, domain, path
    ON CONFLICT ("workspaceId", ${p}, domain, path) DO UPDATE SET ${adds}`;
}
