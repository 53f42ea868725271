// Runs before every integration test file (vitest `setupFiles`), before the file's own imports:
// gives the file a private, migrated database copied from the run's template (ready before the
// file's first hook) and points DATABASE_URL at it, so lib/db/prisma and the worker connect
// there. Dropped after the file.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject, vi } from "vitest";

export type ScratchDatabase = { url: string; name: string; drop: () => Promise<void> };

const adminUrl = inject("testAdminUrl");
const runId = inject("testRunId");

function urlOf(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The database's name and URL at once; `created` settles when CREATE DATABASE has. */
function createDatabase(kind: "test" | "scratch", template?: string): ScratchDatabase & { created: Promise<void> } {
  const name = `beacon_${kind}_${runId}_${randomBytes(4).toString("hex")}`;
  const created = admin(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  let dropped: Promise<void> | undefined;
  // FORCE: a test that forgot to close a pool must not keep its database alive.
  const drop = () => (dropped ??= created.catch(() => {}).then(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
  return { url: urlOf(name), name, drop, created };
}

// Kept on globalThis: vitest may evaluate this module a second time when a test file imports
// createScratchDatabase from it, and the file's database must still be created only once.
const state = globalThis as { beaconTestDatabases?: { file: ScratchDatabase; scratch: Set<ScratchDatabase> } };

/**
 * An EMPTY database (no migrations applied) on the test server, for tests of the migrations
 * themselves. Dropped when the test file ends if the test does not call `drop()` itself.
 */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const { created, ...scratch } = createDatabase("scratch");
  await created;
  state.beaconTestDatabases?.scratch.add(scratch);
  return scratch;
}

// The integration project is not isolated (vitest.config.ts): one test process runs file after
// file, so node_modules (better-auth, Prisma's runtime, pg, Next) load once per process instead
// of once per file. What a file could see of the files before it is undone here, before its own
// imports: process.env as the process started, our modules evaluated afresh (their caches,
// env()'s included, start empty), no singleton left on globalThis (db and auth clients, pause
// hooks, the capture watch; the db clients were disconnected after the previous file), no
// module mock registered by an earlier file.
type ProcessBaseline = { env: NodeJS.ProcessEnv };
const worker = globalThis as { beaconTestBaseline?: ProcessBaseline };
const KEEP_GLOBALS = new Set(["beaconTestBaseline", "beaconTestDatabases", "beaconRequestContext"]);
if (!state.beaconTestDatabases) {
  if (!worker.beaconTestBaseline) {
    worker.beaconTestBaseline = { env: { ...process.env } };
    // better-auth (loaded by Node, once per process) sets its cookies through Node's own
    // next/headers.js, whose ESM view is fixed the first time anything imports it natively. A
    // file that imports lib/ code without mocking next/headers makes that happen (with Next's
    // real accessors, which throw outside a request, and better-auth drops cookies silently) and
    // every later file in the process lost its sessions. So the module is pointed at
    // tests/support/request-context.ts here, before the process's first file imports anything.
    const { assertRequestScopeWired } = await import("./request-context");
    await assertRequestScopeWired();
  } else {
    const { env } = worker.beaconTestBaseline;
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
    Object.assign(process.env, env);
    for (const name of Object.keys(globalThis)) {
      if (name.startsWith("beacon") && !KEEP_GLOBALS.has(name)) delete (globalThis as Record<string, unknown>)[name];
    }
    // Set again by tests/support/request-context.ts in the files that use it.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("beacon.peer-address-header")];
    vi.doUnmock("next/headers");
    vi.resetModules();
  }
  // The copy is made while the test file's modules load (a second or so of this process's CPU;
  // the copy is the server's): until the tests run only its URL is needed, since Prisma and pg
  // connect on first use. The file's first hook waits for it (and fails the file if it failed).
  const { created, ...file } = createDatabase("test", inject("testTemplateDatabase"));
  created.catch(() => {}); // handled by the hook below
  beforeAll(() => created, 120_000);
  const databases = { file, scratch: new Set<ScratchDatabase>() };
  state.beaconTestDatabases = databases;
  Object.assign(process.env, {
    DATABASE_URL: file.url,
    BEACON_AUTH_SECRET: "integration-tests-secret-0123456789abcdef",
    NODE_ENV: "test",
    // The demo seed's 90 days of simulated history take seconds; tests that need history build
    // their own or ask for it (seedDemoHistory).
    BEACON_DEMO_HISTORY_DAYS: process.env.BEACON_DEMO_HISTORY_DAYS ?? "0",
    // Most files sign up several strangers (each in their own workspace). The default mode
    // (invitation only after the first account) and "closed" have their own files, which set
    // BEACON_SIGNUP in vi.hoisted before anything reads the configuration.
    BEACON_SIGNUP: "open",
    // Sign-ups and sign-ins hash passwords at a fraction of the production cost
    // (lib/auth/password-hash.ts); auth-timing.test.ts turns it off.
    BEACON_TEST_CHEAP_PASSWORD_HASH: "true",
  });

  afterAll(async () => {
    if ((globalThis as { beaconPrisma?: unknown }).beaconPrisma) {
      const { disconnectDb } = await import("@/lib/db/prisma");
      await disconnectDb();
    }
    await Promise.all([file, ...databases.scratch].map((database) => database.drop()));
    state.beaconTestDatabases = undefined;
  });
}
