import "server-only";
import pg from "pg";

/**
 * A pg pool whose connections can die at any moment without ending the process.
 *
 * pg emits 'error' on a client when the server ends its connection while no statement runs on it,
 * and an 'error' event nobody listens to kills the process. pg-pool listens while a client is
 * idle and pool.query while its statement runs, but a client handed out by `await pool.connect()`
 * has no listener until the caller attaches one, a turn of the event loop later: a database
 * restart whose FATAL arrives in the same segment as the connection's start-up lands in that gap
 * (tests/integration/connection-fatal.test.ts; it killed a worker that held a paid answer). So
 * every client listens from birth. Nothing is lost by it: the dead client's next statement fails
 * with "not queryable", which its caller handles like any connection error, and pg-pool drops a
 * dead client when it comes back.
 */
export function connectionSafePool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}
