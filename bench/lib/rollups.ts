// The dashboards' rollups of the captures a benchmark generated with SQL, rebuilt whole from the
// raw rows: each table's rows of the workspace deleted, then one grouped statement adds every
// succeeded capture (workspaceRollupStatements: beacon_rollup_captures' statements, scoped to the
// workspace). Tables are independent, so two connections take them in turn (the machine's two
// cores). Batches of ids through beacon_rollup_captures took ~25 minutes per million captures;
// this, 12 minutes on one connection (docs/benchmarks.md).
import { workspaceRollupStatements } from "@/lib/analytics/rollup-sql";
import { BENCH_STATE, connect, ensureBenchState } from "./database";

const CONNECTIONS = 2;

/**
 * The workspace's rollups as its succeeded captures make them. `kept`: a database kept between
 * runs, where each table built is recorded with it (one transaction) and a later run builds only
 * the tables not recorded, so a build stopped half-way (10,000,000 captures take over an hour)
 * goes on where it stopped.
 */
export async function buildRollups(url: string, workspaceId: string, log: (line: string) => void, label: string, options: { kept?: boolean } = {}): Promise<void> {
  let queue = workspaceRollupStatements();
  const builtKey = (table: string) => `rollup built: ${table}`;
  if (options.kept) {
    const client = await connect(url);
    try {
      await ensureBenchState(client);
      const { rows } = await client.query<{ key: string }>(`SELECT key FROM ${BENCH_STATE} WHERE key LIKE 'rollup built: %'`);
      const built = new Set(rows.map((r) => r.key));
      const left = queue.filter((s) => !built.has(builtKey(s.table)));
      if (left.length < queue.length) log(`${label}: ${queue.length - left.length} of ${queue.length} rollup tables built by an earlier run; building the rest`);
      queue = left;
    } finally {
      await client.end();
    }
  }
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
        if (options.kept) await client.query(`INSERT INTO ${BENCH_STATE} (key, at) VALUES ($1, now()) ON CONFLICT (key) DO UPDATE SET at = now()`, [builtKey(next.table)]);
        await client.query("COMMIT");
        log(`${label}: ${next.table}, ${(rowCount ?? 0).toLocaleString("en-US")} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, build));
}
