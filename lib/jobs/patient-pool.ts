import "server-only";
import pg from "pg";
import { connectionSafePool } from "@/lib/db/pool";
import { sessionName } from "@/lib/db/prisma";
import { lastLine } from "@/lib/errors";
import { formatDuration } from "@/lib/format";

/**
 * An error that says the connection failed, not the statement: the server is down, restarting,
 * in recovery, or unreachable (node socket errors, SQLSTATE classes 08 and 57P0x, pg's messages
 * for a connection that died under a query).
 */
function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const message = typeof e?.message === "string" ? e.message : "";
  return (
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|57P01|57P02|57P03|08...)$/.test(code) ||
    /Connection terminated|connection error and is not queryable|terminating connection|Connection ended|timeout exceeded when trying to connect/i.test(message)
  );
}

/**
 * graphile-worker's statements that finish a job (its prepared-statement names in 0.17.3): each is
 * one autocommit statement, and idempotent (a delete by id; an update guarded by locked_by = this
 * pool), so running one again after its connection died is safe even if it had committed.
 */
const JOB_FINISHING_STATEMENT = /^(complete_jobs?|complete_job_q|fail_jobs?|fail_job_q)\//;
const RAW_QUERY = Symbol("beacon.rawQuery");

/**
 * The pool graphile-worker runs on, made to ride out a database restart.
 *
 * Why: graphile-worker 0.17.3 treats ONE failed "complete job" or "fail job" batch as fatal (the
 * retry loop of its batcher rethrows on the first error), shuts its pool down, and that shutdown
 * never finishes (the batcher's pending count goes wrong after the error, so releasing it waits
 * for ever). A database restart in the middle of a check therefore left every worker process
 * alive, heartbeating, and running nothing (tests/integration/lifecycle-db-restart.test.ts).
 *
 * So, once the runner is up (`patient`): taking a connection waits for the database to come back
 * instead of failing, and a job-finishing statement whose connection died under it runs again on
 * a fresh connection. Everything else graphile-worker does already survives a failed query (job
 * fetches are retried every poll, LISTEN reconnects, cron restarts), and our own tasks record
 * their results through Prisma with their own retries (lib/lifecycle/run/run-capture.ts).
 */
export function patientPool(options: { connectionString: string; max: number; log: (line: string) => void }) {
  const { connectionString, max, log } = options;
  // Named like the process's Prisma sessions, with ":jobs", so pg_stat_activity tells the pools apart.
  // graphile-worker installs error listeners itself only on a pool it creates.
  const pool = connectionSafePool({ connectionString, max, application_name: `${sessionName(process.pid)}:jobs` });
  const state = { patient: false, waitingSince: 0 };

  const original = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | void;
  const connect = () => original() as Promise<pg.PoolClient>;
  const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5))));
  const giveUp = (error: unknown) => !state.patient || pool.ending || !isConnectionError(error);

  async function connectPatiently(): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt++) {
      try {
        const client = wrap(await connect());
        if (state.waitingSince) {
          log(`database reachable again after ${formatDuration(Date.now() - state.waitingSince)}`);
          state.waitingSince = 0;
        }
        return client;
      } catch (error) {
        if (giveUp(error)) throw error;
        if (!state.waitingSince) {
          state.waitingSince = Date.now();
          log(`database unreachable (${lastLine(error)}); the job queue waits for it`);
        }
        await pause(attempt);
      }
    }
  }

  type Raw = (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  function wrap(client: pg.PoolClient): pg.PoolClient {
    const marked = client as pg.PoolClient & { [RAW_QUERY]?: Raw };
    if (marked[RAW_QUERY]) return client;
    const raw = client.query.bind(client) as Raw;
    marked[RAW_QUERY] = raw;
    client.query = ((config: unknown, ...rest: unknown[]) => {
      const name = typeof config === "object" && config !== null ? (config as pg.QueryConfig).name : undefined;
      if (rest.length || !name || !JOB_FINISHING_STATEMENT.test(name)) return (raw as (...args: unknown[]) => unknown)(config, ...rest);
      return raw(config as pg.QueryConfig).catch((error: unknown) => {
        if (giveUp(error)) throw error;
        giveSlotBack(client, error);
        return runAgain(config as pg.QueryConfig, error);
      });
    }) as typeof client.query;
    return client;
  }

  /**
   * The dead connection's pool slot, given back before the statement runs again. graphile-worker
   * releases a client only when its statement returns, and running it again needs a connection:
   * with the default pool of 2, one held by LISTEN, the second would wait for ever for the slot
   * the first still held (a job left locked by a live worker that no longer runs it,
   * tests/integration/lifecycle-lost-finish.test.ts). The client is removed from the pool (its
   * connection is dead, it is never handed out again); graphile-worker's own release of it later
   * does nothing.
   */
  function giveSlotBack(client: pg.PoolClient, error: unknown) {
    const release = client.release;
    client.release = () => {};
    release.call(client, error instanceof Error ? error : new Error(String(error)));
  }

  async function runAgain(config: pg.QueryConfig, firstError: unknown): Promise<pg.QueryResult> {
    let error = firstError;
    // One connection at a time: each failed try releases its own before the next takes one.
    for (let attempt = 0; ; attempt++) {
      if (giveUp(error)) throw error;
      await pause(attempt);
      const client = await connectPatiently();
      try {
        const result = await (client as pg.PoolClient & { [RAW_QUERY]: Raw })[RAW_QUERY](config);
        client.release();
        return result;
      } catch (next) {
        client.release(next as Error);
        error = next;
      }
    }
  }

  // The callback form is graphile-worker's LISTEN client, which reconnects by itself.
  pool.connect = ((callback?: unknown) => (callback ? original(callback) : connectPatiently())) as typeof pool.connect;
  return { pool, state };
}

