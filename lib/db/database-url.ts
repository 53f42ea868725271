// "Get me a database": the single answer used by dev, start, the worker, scripts and tests.
// DATABASE_URL wins; without it an embedded PostgreSQL keeps its data in BEACON_DATA_DIR.
import path from "node:path";
import { env } from "@/lib/config/env";
import { ensureDatabase, freePort, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";

export type Database = {
  url: string;
  source: "env" | "embedded";
  /** Stops the embedded server if this process started it; a no-op otherwise. */
  stop: () => Promise<void>;
};

const DATABASE_NAME = "beacon";

async function portIsFree(port: number): Promise<boolean> {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export async function getDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  const e = env();
  if (e.DATABASE_URL) return { url: e.DATABASE_URL, source: "env", stop: async () => {} };

  const preferred = e.BEACON_EMBEDDED_PG_PORT;
  const server = await startEmbeddedPostgres({
    dataDir: path.resolve(e.BEACON_DATA_DIR, "postgres"),
    port: (await portIsFree(preferred)) ? preferred : await freePort(),
    log,
  });
  const url = await ensureDatabase(server.adminUrl, DATABASE_NAME);
  return { url, source: "embedded", stop: server.stop };
}
