// Every rollup table (ROLLUPS) as kept, against the same tables rebuilt from scratch out of the
// raw rows: what incremental upkeep (successes, re-analysis, re-tagging, retention, brand edits,
// each beside the others) must always equal. The rebuild runs in a transaction that is rolled
// back, so the kept rows stay for whatever reads them next. A new rollup table is covered
// without a line here.
import { ROLLUPS } from "@/lib/analytics/rollup-tables";
import { recordRollups } from "@/lib/analytics/rollups";
import { workspaceRollupStatements } from "@/lib/analytics/rollup-sql";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

type Reader = { $queryRawUnsafe: <T>(sql: string, ...values: unknown[]) => Promise<T> };
export type RollupRows = Record<string, unknown[]>;

export async function rollupRows(brandId: string, client: Reader = db()): Promise<RollupRows> {
  const out: RollupRows = {};
  for (const { table } of ROLLUPS) {
    // Ordered by the whole row: the tables have from 6 columns up.
    out[table] = await client.$queryRawUnsafe<unknown[]>(`SELECT * FROM ${table} t WHERE "brandId" = $1::uuid ORDER BY t`, brandId);
  }
  return out;
}

class RolledBack extends Error {}

/** The brand's rollups as kept and as a rebuild from its captures would have them. */
export async function rollupsAndRebuild(brandId: string): Promise<{ kept: RollupRows; rebuilt: RollupRows }> {
  return keptAndRebuilt(brandId, async (tx) => {
    for (const { table } of ROLLUPS) await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE "brandId" = $1::uuid`, brandId);
    const ids = await tx.capture.findMany({ where: { brandId }, select: { id: true } });
    await recordRollups(tx, ids.map((c) => c.id));
  });
}

/** The brand's rollups as kept and as its workspace's rollups built whole would have them (workspaceRollupStatements). */
export async function rollupsAndWorkspaceBuild(workspaceId: string, brandId: string): Promise<{ kept: RollupRows; rebuilt: RollupRows }> {
  return keptAndRebuilt(brandId, async (tx) => {
    for (const { table } of ROLLUPS) await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE "workspaceId" = $1::uuid`, workspaceId);
    for (const { sql } of workspaceRollupStatements()) await tx.$executeRawUnsafe(sql, workspaceId);
  });
}

type Tx = Prisma.TransactionClient;

async function keptAndRebuilt(brandId: string, rebuild: (tx: Tx) => Promise<void>): Promise<{ kept: RollupRows; rebuilt: RollupRows }> {
  const kept = await rollupRows(brandId);
  let rebuilt: RollupRows = {};
  await db()
    .$transaction(async (tx) => {
      await rebuild(tx);
      rebuilt = await rollupRows(brandId, tx);
      throw new RolledBack();
    }, { timeout: 60_000 })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return { kept, rebuilt };
}
