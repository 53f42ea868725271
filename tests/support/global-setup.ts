// One PostgreSQL server per test run, and one migrated template database on it. Every
// integration test file then gets its own copy of the template (tests/support/setup-database.ts),
// which is far cheaper than migrating a database per file.
//
// TEST_DATABASE_URL points the run at an existing server (any database on it; we only create and
// drop our own databases there). Without it an embedded PostgreSQL runs in a temporary folder.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/instance/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the server's maintenance database: create and drop databases through it. */
    testAdminUrl: string;
    /** Migrated database to copy with `CREATE DATABASE ... TEMPLATE`. */
    testTemplateDatabase: string;
    /** Part of every database name this run creates, so teardown can find leftovers. */
    testRunId: string;
  }
}

const MIGRATIONS = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const SQL_OBJECTS = fileURLToPath(new URL("../../prisma/sql", import.meta.url));

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// tests/support/setup-database.ts names its databases beacon_test_<runId>_* and beacon_scratch_<runId>_*.
async function dropRunDatabases(adminUrl: string, runId: string): Promise<void> {
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE ANY ($1)`,
      [[`beacon_template_${runId}`, `beacon_test_${runId}_%`, `beacon_scratch_${runId}_%`]],
    );
    for (const { datname } of rows) {
      await client.query(`ALTER DATABASE "${datname}" WITH IS_TEMPLATE false`);
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

/** Starts the embedded server in a fresh folder and makes sure nothing of it outlives the run. */
async function startTemporaryServer(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-test-pg-"));
  // mkdtemp makes the folder private; as root the server runs as `postgres`, which must enter
  // it, otherwise the cluster would be put somewhere else that we would then have to find.
  fs.chmodSync(dataDir, 0o755);
  let server: EmbeddedPostgres | undefined;
  const removeFolders = () => {
    for (const dir of new Set([dataDir, server?.clusterDir])) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  // If vitest dies without running teardown (Ctrl-C twice, a crash), kill the server anyway.
  const onExit = () => {
    try {
      const pid = Number(fs.readFileSync(path.join(server?.clusterDir ?? dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      if (pid) process.kill(pid, "SIGQUIT");
    } catch {
      // no server running
    }
    removeFolders();
  };
  process.once("exit", onExit);
  try {
    server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  } catch (error) {
    process.off("exit", onExit);
    removeFolders();
    throw error;
  }
  const started = server;
  return {
    adminUrl: started.adminUrl,
    stop: async () => {
      process.off("exit", onExit);
      await started.stop();
      removeFolders();
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const startedAt = Date.now();
  const runId = randomBytes(4).toString("hex");
  const external = process.env.TEST_DATABASE_URL;
  const server = external ? { adminUrl: external, stop: async () => {} } : await startTemporaryServer();

  const teardown = async () => {
    if (external) await dropRunDatabases(external, runId);
    await server.stop();
  };

  try {
    const template = `beacon_template_${runId}`;
    const templateUrl = await ensureDatabase(server.adminUrl, template);
    await migrate(templateUrl, { dir: MIGRATIONS, sqlDir: SQL_OBJECTS });
    // Nobody may connect to the template while files copy it (CREATE DATABASE would refuse).
    await withAdmin(server.adminUrl, (client) => client.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`));

    project.provide("testAdminUrl", server.adminUrl);
    project.provide("testTemplateDatabase", template);
    project.provide("testRunId", runId);
    console.log(
      `[global-setup] ${external ? "TEST_DATABASE_URL server" : "embedded PostgreSQL"} ready, template migrated in ${Date.now() - startedAt} ms`,
    );
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
