// npm run dev | start | web | worker: get the database (embedded unless DATABASE_URL), apply
// migrations, seed the demo data (dev; start only when asked, see scripts/lib/demo-seed.ts), then
// run the worker and/or Next.js as child processes with prefixed output. Ctrl-C or SIGTERM stops
// the children, then the database; if this process is killed outright, the children notice and
// stop (lib/process/launcher-watchdog.ts).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureAuthSecret } from "@/lib/config/auth-secret";
import { env, publicUrl, setDatabaseUrl } from "@/lib/config/env";
import { getDatabase, type Database } from "@/lib/db/database-url";
import { migrate, MigrationError } from "@/lib/instance/migrate";
import { validateEngineEnv } from "@/lib/providers/registry";
import { launcherEnv } from "@/lib/process/launcher-watchdog";
import { WEB_STOP_DEADLINE_MS, workerStopDeadlineMs } from "@/lib/process/stop-deadlines";
import { demoSeedPlan } from "@/scripts/lib/demo-seed";
import { describeExit, paint, startChild, tagged, type Child } from "@/scripts/lib/processes";
import { describeWarmUp, FIRST_ROUTES, warmUp } from "@/lib/process/warm-up";
import { workerNodeArgs } from "@/scripts/lib/worker-bundle";

const MODES = {
  dev: { next: "dev", worker: true },
  start: { next: "start", worker: true },
  web: { next: "start", worker: false },
  worker: { next: null, worker: true },
} as const;
type Mode = keyof typeof MODES;

// npm runs scripts from the repository root; the data folder and migrations are found from there.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const binOf = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const say = tagged("beacon", "green");
const fail = tagged("beacon", "red", process.stderr);
const log = {
  db: tagged("db", "blue"),
  migrate: tagged("migrate", "cyan"),
  seed: tagged("seed", "yellow"),
};

const modeArg = process.argv[2] ?? "";
if (!(modeArg in MODES)) {
  fail(`usage: tsx scripts/run.ts ${Object.keys(MODES).join("|")}`);
  process.exit(2);
}
const mode = modeArg as Mode;
const plan = MODES[mode];
const production = plan.next === "start";

if (plan.next === "start" && !fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
  fail(`no production build found: run npm run build first${mode === "web" ? "" : " (or npm run dev)"}`);
  process.exit(1);
}

const e = env();
validateEngineEnv();
const children: Child[] = [];
let pendingDatabase: Promise<Database> | undefined;
let shuttingDown = false;

async function shutdown(code: number, reason?: string): Promise<never> {
  if (shuttingDown) return new Promise<never>(() => {});
  shuttingDown = true;
  if (reason) (code === 0 ? say : fail)(reason);
  await Promise.all(children.map((child) => child.stop(child.name === "worker" ? workerStopDeadlineMs() : WEB_STOP_DEADLINE_MS)));
  // The database goes last: the worker still writes its final heartbeat while it drains.
  const database = await pendingDatabase?.catch(() => undefined);
  await database?.stop().catch((error: unknown) => fail(`stopping the database failed: ${(error as Error).message}`));
  process.exit(code);
}

// A Ctrl-C arrives twice (from the terminal and relayed by tsx): only a later one is news.
let firstSignalAt = 0;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (!shuttingDown) {
      firstSignalAt = Date.now();
      void shutdown(0, `${signal === "SIGINT" ? "Ctrl-C" : signal}: stopping`);
    } else if (Date.now() - firstSignalAt > 1000) {
      say("still stopping: waiting for the processes to finish their work");
    }
  });
}

function banner(login: string | null) {
  const lines = [
    `Beacon is ready: ${publicUrl()}`,
    ...(login === null ? [] : [login]),
    mode === "web" ? "web server only; run workers with npm run worker" : "Ctrl-C stops everything",
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const rule = paint("green", "─".repeat(width));
  process.stdout.write(`\n${rule}\n${lines.map((l) => `  ${paint("green", l)}`).join("\n")}\n${rule}\n\n`);
}

async function seed(): Promise<string | null> {
  const demo = demoSeedPlan(mode, e.BEACON_SEED_DEMO);
  if (!demo.seed) return demo.note;
  if (demo.warning) fail(demo.warning);
  const { seedDemo } = await import("@/lib/seed/demo");
  const { disconnectDb } = await import("@/lib/db/prisma");
  try {
    const result = await seedDemo({ log: log.seed });
    log.seed(result.created ? "demo data created" : "demo data already present");
    return `demo login: ${result.email} / ${result.password}`;
  } finally {
    await disconnectDb();
  }
}

function supervise(child: Child) {
  children.push(child);
  void child.exited.then((exit) => {
    if (!shuttingDown) void shutdown(1, `${child.name} exited unexpectedly (${describeExit(exit)}); stopping everything`);
  });
}

async function main() {
  const authSecret = ensureAuthSecret();
  pendingDatabase = getDatabase(log.db);
  const database = await pendingDatabase;
  if (shuttingDown) return;
  log.db(database.source === "embedded" ? `embedded PostgreSQL: ${database.url}` : "using DATABASE_URL");
  setDatabaseUrl(database.url);

  const { applied, alreadyApplied } = await migrate(database.url, { log: log.migrate });
  log.migrate(`${applied.length} applied, ${alreadyApplied.length} already applied`);
  const login = await seed();
  if (shuttingDown) return;

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    BEACON_AUTH_SECRET: authSecret,
    NEXT_TELEMETRY_DISABLED: "1",
    // The children stop by themselves if this process dies without stopping them (SIGKILL, OOM).
    ...launcherEnv(),
    ...(production ? { NODE_ENV: "production" } : {}),
  };
  if (plan.worker) {
    // Plain node on the bundled worker (scripts/lib/worker-bundle.ts), not the tsx CLI either:
    // the CLI relays signals to its child and SIGKILLs it when the child does not acknowledge one
    // within ~60 ms (a busy worker, mid-drain).
    const args = await workerNodeArgs();
    if (shuttingDown) return;
    supervise(startChild({ name: "worker", color: "magenta", command: process.execPath, args, env: childEnv, cwd: root }));
  }
  if (plan.next) {
    let ready = false;
    const onLine = (line: string) => {
      if (ready || !/\bReady in\b/.test(line)) return;
      ready = true;
      if (plan.next !== "dev") return banner(login);
      // Dev compiles a route on its first request: compile the first two pages before saying ready.
      say("compiling the sign-in page and the dashboard before the first visit (faster on later starts)");
      void warmUp(`http://localhost:${e.PORT}`, FIRST_ROUTES, 300_000).then((result) => {
        if (shuttingDown) return;
        say(describeWarmUp(result));
        banner(login);
      });
    };
    const args = [binOf("next", "dist/bin/next"), plan.next, "-p", String(e.PORT)];
    // Next.js hides the socket's peer address; the preload hands it to the app (lib/auth/client-address.ts).
    // Through NODE_OPTIONS, so the server process `next dev` forks gets it too.
    const preload = `--require ${JSON.stringify(path.join(root, "scripts", "peer-address.cjs"))}`;
    const webEnv = { ...childEnv, NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(" ") };
    supervise(startChild({ name: "web", color: "cyan", command: process.execPath, args, env: webEnv, cwd: root, onLine }));
  }
}

main().catch((error: unknown) => {
  // A migration error is a message for the operator; anything else is a bug worth its stack.
  const detail = error instanceof MigrationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  void shutdown(1, `startup failed: ${detail}`);
});
