// The dashboards' rollups of the captures a benchmark generated with SQL, rebuilt whole from the
// raw rows: each table's rows of the workspace deleted, then one grouped statement adds every
// succeeded capture (workspaceRollupStatements: beacon_rollup_captures' statements, scoped to the
// workspace). Tables are independent, so two connections take them in turn (the machine's two
// cores). Batches of ids through beacon_rollup_captures took ~25 minutes per million captures;
// this, 12 minutes on one connection (docs/benchmarks.md).
import { workspaceRollupStatements } from "@/lib/analytics/rollup-sql";
import { connect } from "./database";

const CONNECTIONS = 2;

/** The workspace's rollups as its succeeded captures make them. */
export async function buildRollups(url: string, workspaceId: string, log: (line: string) => void, label: string): Promise<void> {
  const queue = workspaceRollupStatements();
  // Statistics of the rows just generated first: without them the planner guessed (the mentions'
  // rollup of 20,000 captures took 83 s before, against 34 s for a million analysed by autovacuum).
  const analyzer = await connect(url);
  try {
    await analyzer.query("ANALYZE captures, mentions, citations, prompts");
  } finally {
    await analyzer.end();
  }
  const build = async () => {
    const client = await connect(url);
    try {
      // Hash aggregates over millions of rows: in memory rather than spilled to disk in batches.
      await client.query("SET work_mem = '256MB'");
      for (let next = queue.shift(); next; next = queue.shift()) {
        const t0 = performance.now();
        await client.query("BEGIN");
        await client.query(`DELETE FROM ${next.table} WHERE "workspaceId" = $1`, [workspaceId]);
        const { rowCount } = await client.query(next.sql, [workspaceId]);
        await client.query("COMMIT");
        log(`${label}: ${next.table}, ${(rowCount ?? 0).toLocaleString("en-US")} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, build));
}
