// The one place that reads process.env. Every setting is documented in the configuration
// table of docs/operating.md; keep them in step. The AI engines' variables are declared beside
// their adapters (lib/providers/<engine>.ts, documented in docs/providers.md) and read here too,
// through envReader.
import { z } from "zod";
import { parseTrustedProxies } from "@/lib/net/trusted-proxies";
import { parseReadinessOrigins } from "@/lib/net/readiness-origins";
import { OPENAI_COMPATIBLE_KEY_ENV } from "@/lib/config/openai-compatible-key";

const boolean = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** A list setting its parser checks (an address list, domain=origin pairs): the start stops with the parser's reason. */
const parsedList = (parse: (spec: string) => { ok: true } | { ok: false; error: string }) =>
  z
    .string()
    .optional()
    .superRefine((spec, ctx) => {
      const parsed = spec === undefined ? null : parse(spec);
      if (parsed && !parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
    });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  // A read replica for the dashboards and exports (lib/db/prisma.ts readDb); unset: DATABASE_URL.
  DATABASE_READ_URL: z.string().url().optional(),
  BEACON_DATA_DIR: z.string().default(".data"),
  BEACON_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  BEACON_URL: z.string().url().optional(),
  // The API key `npm run beacon -- mcp` serves MCP with: it decides the workspace and the scope.
  BEACON_API_KEY: z.string().optional(),
  BEACON_AUTH_SECRET: z.string().min(32, "BEACON_AUTH_SECRET must be at least 32 characters").optional(),
  // Who may create an account (lib/auth/sign-up.ts): "invite" (unset) lets the first account of a
  // fresh instance create it and become its operator, then only invited addresses; "open" anyone;
  // "closed" nobody after the first account.
  BEACON_SIGNUP: z.enum(["open", "invite", "closed"]).default("invite"),
  // Proxies whose X-Forwarded-For is believed (lib/net/trusted-proxies.ts): addresses and CIDR
  // ranges, comma-separated. Unset: the socket's peer is the client.
  BEACON_TRUSTED_PROXIES: parsedList(parseTrustedProxies),
  // The demo workspace (public login): `npm run dev` creates it unless false; `npm start` only
  // when true (scripts/lib/demo-seed.ts). Unset means each mode's default.
  BEACON_SEED_DEMO: boolean.optional(),
  // Days of simulated history the demo seed creates (0 for none).
  BEACON_DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(400).default(90),
  BEACON_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(8),
  // Database connections one process may hold (docs/operating.md "Database connections" has the
  // arithmetic behind the defaults): Prisma's pool in every process (web server, worker, CLI; a
  // web server has a second one on DATABASE_READ_URL when set), and graphile-worker's pool in a
  // worker, one of whose connections stays in LISTEN (so at least 2).
  BEACON_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(4),
  BEACON_WORKER_QUEUE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(2),
  // PostgreSQL's max_parallel_workers_per_gather for Beacon's own sessions. 0: the dashboards
  // read rollups of thousands of rows, where starting parallel workers and merging their output
  // cost more than the work they share (docs/benchmarks.md "Parallel query").
  BEACON_DB_PARALLEL_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  // PostgreSQL's random_page_cost for Beacon's own sessions. 2: the dashboards' rollups are read
  // from memory or SSD, and at the server's default of 4 the planner read a whole weekly rollup
  // (259,000 rows) to keep a month's 40,000 where its index reads those alone, twice as fast
  // (docs/benchmarks.md "Random page cost").
  BEACON_DB_RANDOM_PAGE_COST: z.coerce.number().min(0.1).max(100).default(2),
  BEACON_WORKER_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(5),
  // How often an idle worker looks for jobs that became due (retries, postponed and re-queued
  // captures); new jobs wake it at once. Each look is a query per worker slot.
  BEACON_WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // How often each worker looks for dead workers whose captures must be recovered.
  BEACON_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  // When set, /api/metrics requires `Authorization: Bearer <token>`.
  BEACON_METRICS_TOKEN: z.string().min(16, "BEACON_METRICS_TOKEN must be at least 16 characters").optional(),
  // Attempts older than this are deleted by the hourly retention task; results are kept.
  BEACON_ATTEMPT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Raw crawler hits (traffic_hits) older than this are deleted by the hourly retention; the daily
  // rollup (traffic_daily) keeps their counts (docs/traffic.md).
  BEACON_TRAFFIC_HIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Largest access log POST /api/v1/traffic/logs reads, in MB, counted after gzip is undone.
  BEACON_TRAFFIC_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(4096).default(100),
  // A keyed access log import's lease (lib/traffic/import-record.ts): renewed while it runs; a
  // request sent again with its key after its process died waits this long at most (409).
  BEACON_TRAFFIC_IMPORT_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // Visits the /t.js script may report per site key and minute (docs/traffic.md); more are dropped.
  BEACON_VISITS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  // Site readiness (lib/traffic/readiness-check.ts): the deadline of one fetch, redirects included.
  BEACON_READINESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Non-public addresses and CIDR ranges site readiness may fetch anyway (an intranet site; tests'
  // local servers), comma-separated like BEACON_TRUSTED_PROXIES. Unset: public addresses only.
  BEACON_READINESS_ALLOW_ADDRESSES: parsedList(parseTrustedProxies),
  // Own domains site readiness fetches at another origin than https://<domain> (a name this
  // network resolves elsewhere, a staging copy; the browser tests' local site), as
  // "domain=origin" pairs separated by commas. The origin's address still passes the SSRF guard.
  BEACON_READINESS_ORIGINS: parsedList(parseReadinessOrigins),
  // Base of the exponential retry backoff (DESIGN.md "Retries by error class").
  BEACON_RETRY_BASE_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  // How long a worker keeps trying to record (or learn) a run's result while the database fails
  // or is locked by a frozen peer, before it gives the run up to the sweeper.
  BEACON_RESULT_WRITE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  // Every interactive transaction (lib/db/transaction.ts): how long it may wait for a connection,
  // how long it may run in all (Prisma's 5 s default fails on a loaded machine), and how many
  // times in all it runs when PostgreSQL or that limit ended it (a deadlock, a serialization
  // failure, a lock timeout).
  BEACON_DB_TRANSACTION_MAX_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  BEACON_DB_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  BEACON_DB_TRANSACTION_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  // How often the repair pass looks for captures in states that should be impossible.
  BEACON_REPAIR_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // How long a job locked by a live worker must have been seen not running by it before that
  // worker hands it back (lib/worker/stranded-jobs.ts): longer than a finish waiting for its turn
  // on a busy queue pool. Tests lower it.
  BEACON_STRANDED_JOB_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  // How long a capture waiting for budget waits before it looks again (money freed by finishing
  // calls and a raised budget wake it at once).
  BEACON_BUDGET_RECHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Tests only: lifecycle pause points (lib/db/pause-points.ts) a test holds
  // from another process through advisory locks. Comma-separated names; unset in production.
  BEACON_TEST_PAUSE_POINTS: z.string().optional(),
  // Tests only: cheaper password hashes (lib/auth/password-hash.ts); refused unless NODE_ENV=test.
  // A weaker password hash must never reach a real instance, however its environment is set up
  // (read here, in the field, because env() is rebuilt from the schema's shape by envReader).
  BEACON_TEST_CHEAP_PASSWORD_HASH: boolean.default(false).refine((on) => !on || process.env.NODE_ENV === "test", "only allowed with NODE_ENV=test"),
  // Alerts (lib/alerts): where email alerts are sent through (smtp://user:pass@host:587, or
  // smtps:// for TLS from the start) and whom they come from. Without SMTP_URL an email channel
  // can be saved but its deliveries fail saying so.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
    .optional(),
  ALERTS_EMAIL_FROM: z.string().min(3).default("Beacon <alerts@localhost>"),
  // Lets webhook and Slack channels call loopback, private, link-local and unique-local
  // addresses, and webhooks use http://. Off by default: a workspace admin on a shared instance
  // must not make the worker call the instance's internal network (lib/alerts/safe-url.ts).
  ALERTS_ALLOW_PRIVATE_URLS: boolean.default(false),
  // Where Slack channels must point; tests point it at a local receiver.
  ALERTS_SLACK_BASE_URL: z.string().url().default("https://hooks.slack.com/"),
  // Base of a delivery's retry backoff (x5 per attempt: 1 min, 5 min, 25 min, ~2 h, ~10 h).
  ALERTS_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(60_000),
  ALERTS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  // Per send (connect, request, response) for email, Slack and webhooks.
  ALERTS_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Ended alert deliveries (delivered or failed) older than this are deleted by the hourly retention.
  ALERTS_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
});

export type Env = z.infer<typeof envSchema>;

// Bumped by reloadEnv(): every reader parses process.env again on its next call.
let generation = 0;

/**
 * A reader of the variables `shape` names, validated by their schemas: parsed on the first call
 * and cached until reloadEnv(). env() is the reader of this file's schema; each AI engine reads
 * its own variables with one (lib/providers/<engine>.ts), and lib/providers/registry.ts validates
 * all of theirs at start.
 */
export function envReader<S extends z.ZodRawShape>(shape: S): () => z.output<z.ZodObject<S>> {
  const schema = z.object(shape);
  let cached: { generation: number; value: z.output<z.ZodObject<S>> } | undefined;
  return () => {
    if (cached?.generation !== generation) cached = { generation, value: parseEnv(schema) };
    return cached.value;
  };
}

function parseEnv<S extends z.ZodRawShape>(schema: z.ZodObject<S>): z.output<z.ZodObject<S>> {
  // An empty variable (FOO= in a shell or an .env file) means "not set".
  const set = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env: () => Env = envReader(envSchema.shape);

/**
 * The launcher learns the database URL only after it has started the database, after env() was
 * first read; code that runs later in the same process (the seed, Prisma) must see it.
 */
export function setDatabaseUrl(url: string): void {
  process.env.DATABASE_URL = url;
  reloadEnv();
}

/** Reads process.env again at the next env() (after the launcher, or a test, changed it). */
export function reloadEnv(): void {
  generation += 1;
}

/**
 * The key an OpenAI-compatible connection names (settings.apiKeyEnv). Read at call time, since
 * the names come from the database; undefined for a name outside OPENAI_COMPATIBLE_* (see
 * OPENAI_COMPATIBLE_KEY_ENV for why) or a variable unset or empty.
 */
export function openAICompatibleKey(name: string): string | undefined {
  if (!OPENAI_COMPATIBLE_KEY_ENV.test(name)) return undefined;
  return process.env[name] || undefined;
}

export function publicUrl(): string {
  const e = env();
  return e.BEACON_URL ?? `http://localhost:${e.PORT}`;
}

export function requireDatabaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set. Start Beacon with `npm run dev` or `npm start`, or set DATABASE_URL.");
  return url;
}
