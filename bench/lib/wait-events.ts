// What the database sessions are doing during a measurement: pg_stat_activity sampled every
// 50 ms. The top entries name the waits (locks) that bound throughput.
import { connect } from "./database";
import { round } from "./stats";

export type WaitSample = { what: string; sharePct: number };

export type WaitEvents = { samples: number; byType: WaitSample[]; top: WaitSample[] };

export function sampleWaitEvents(databaseUrl: string): { stop: () => Promise<WaitEvents> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const connecting = connect(databaseUrl);
  const loop = (async () => {
    const client = await connecting;
    while (!stopped) {
      const { rows } = await client.query<{ what: string }>(
        `SELECT CASE WHEN state = 'idle in transaction' THEN 'idle in transaction (waiting for the client)'
                     ELSE coalesce(wait_event_type || ':' || wait_event, 'running') || ' | ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 80) END AS what
         FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')`,
      );
      samples++;
      for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop.catch(() => {});
      await (await connecting.catch(() => null))?.end().catch(() => {});
      const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
      const share = (entries: Iterable<[string, number]>, count: number) =>
        [...entries].sort((a, b) => b[1] - a[1]).slice(0, count).map(([what, n]) => ({ what, sharePct: round((100 * n) / total, 0) }));
      const byType = new Map<string, number>();
      for (const [what, n] of counts) byType.set(what.split(" | ")[0]!, (byType.get(what.split(" | ")[0]!) ?? 0) + n);
      return { samples, byType: share(byType, 5), top: share(counts, 8) };
    },
  };
}
