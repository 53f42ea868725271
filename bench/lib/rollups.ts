// The dashboards' rollups of captures a benchmark generated with SQL, built as the success path
// would have kept them (beacon_rollup_captures), a batch at a time so no statement holds millions.
import type pg from "pg";

const ROLLUP_BATCH = 50_000;

/** The rollups of the generated captures, as the success path would have kept them, a batch at a time. */
export async function buildRollups(client: pg.Client, workspaceId: string, log: (line: string) => void, label: string): Promise<void> {
  let after = "00000000-0000-0000-0000-000000000000";
  for (let done = 0; ; ) {
    const { rows } = await client.query<{ last: string | null; n: number }>(
      `WITH batch AS (SELECT id FROM captures WHERE "workspaceId" = $1 AND id > $2 ORDER BY id LIMIT ${ROLLUP_BATCH}),
            rolled AS (SELECT beacon_rollup_captures(array_agg(id), 1) FROM batch)
       SELECT (SELECT max(id::text) FROM batch) AS last, (SELECT count(*)::int FROM batch) AS n, (SELECT count(*) FROM rolled) AS _`,
      [workspaceId, after],
    );
    if (!rows[0]!.n) return;
    after = rows[0]!.last!;
    done += rows[0]!.n;
    log(`${label}: rollups of ${done.toLocaleString("en-US")} captures`);
  }
}
