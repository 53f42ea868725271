// Randomized chaos over the whole pipeline and every feature that writes to what the lifecycle
// owns, with real worker processes against a PostgreSQL server of this file's own, a local
// OpenAI-compatible provider that records every call (tests/support/fake-providers/
// chaos-provider.ts) and a flaky Slack-like receiver (tests/support/flaky-receiver.ts).
// fast-check draws a schedule (cancels of captures and of checks, admin retries of a capture or
// a check, SIGKILLed and SIGSTOPped workers, flaky and hanging providers, database restarts, a
// budget that runs out and is raised, brand edits that add and remove competitors and aliases,
// grant limit changes and revokes, connections repriced, disabled or narrowed to another model, setup
// wizard requests, alert evaluations and rule edits beside them, schedules come due run by two
// callers while they are paused, retimed or deleted, "Send test" and "Send again", a receiver that refuses posts
// or accepts them after the sender's timeout, the hourly retention pass deleting every ended
// attempt in small batches, access logs imported with an Idempotency-Key, broken off and sent
// again until they are in), each step fired
// when the checks reach a given share of their captures (progress, not wall-clock time). Every
// operation goes through the lib function its page or API calls, as a member of the role it
// needs. Then everything is let settle (quiescence) and the invariants are checked; each one's
// failures name the capture, delivery or call and what happened (INVARIANTS below).
//
// Each run has its own seed (the base seed + its number); BEACON_CHAOS_SEED=<seed>
// BEACON_CHAOS_RUNS=1 replays one; BEACON_CHAOS_ACTIONS=<kind>,<kind> draws only those steps. All runs are made even when one fails, and every run's verdict
// per invariant goes to BEACON_CHAOS_REPORT (JSON lines) when set: `npm run bench -- --chaos=N`
// summarises it. `npm test` makes BEACON_CHAOS_RUNS runs (default 2).
import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETUP_MARKER, startChaosProvider, type ChaosProvider, type ProviderCall } from "../support/fake-providers/chaos-provider";
import { startFlakyReceiver, type FlakyReceiver } from "../support/flaky-receiver";
import {
  budgetNow,
  CHAOS_COMPETITORS,
  CHAOS_BRAND,
  CHAOS_MODELS,
  connectionInputOf,
  expectBudgetConsistent,
  grantSpendNow,
  newHttpSpace,
  repairsIn,
  startCheckOf,
  type HttpSpace,
} from "../support/lifecycle-fixtures";
import { privatePostgres, type PrivatePostgres } from "../support/restartable-postgres";
import { rollupsAndRebuild } from "../support/rollup-rebuild";
import { attemptRollupAndRebuild } from "../support/attempt-rollup";
import { waitFor } from "../support/wait-for";
import { startWorker, type WorkerProcess } from "../support/worker-process";
import { createChannel } from "@/lib/alerts/channels";
import { createRule, setRuleEnabled, updateRule } from "@/lib/alerts/rules";
import { requestAlertEvaluation } from "@/lib/alerts/schedule";
import { sendDeliveryAgain, sendTestDelivery } from "@/lib/alerts/deliveries";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { ruleInputSchema } from "@/lib/alerts/schemas";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { candidateRows, mentionRows } from "@/lib/analysis/rows";
import { assertCan, canEditTrackingSetup, canImportTraffic, canManageAlerts, canManageSchedules, canManageWorkspaceSettings, canRunSetup } from "@/lib/permissions/permissions";
import { canonicalizeStoredDomains, createBrand, deleteBrand, updateBrand } from "@/lib/brands/brands";
import { updatePrompt } from "@/lib/prompts/prompts";
import { promptInputSchema } from "@/lib/prompts/schemas";
import { brandInputSchema } from "@/lib/brands/schemas";
import { retryReanalysis } from "@/lib/brands/reanalysis";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { isTerminal } from "@/lib/captures/states";
import { cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, requestCheckRetry } from "@/lib/checks/operations";
import { reloadEnv } from "@/lib/config/env";
import { grantConnection, revokeConnection, updateConnection } from "@/lib/connections/connections";
import { onPausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { importTrafficLog } from "@/lib/traffic/import";
import { normalizeHost } from "@/lib/analysis/host";
import { runDueSchedules } from "@/lib/schedules/run-due";
import { archivePrompts, createSchedule, deleteSchedule, pauseSchedule, updateSchedule } from "@/lib/schedules/schedules";
import { scheduleInputSchema } from "@/lib/schedules/schemas";
import { startSetupSchema } from "@/lib/setup/schemas";
import { requestSetupSuggestions } from "@/lib/setup/suggestions";
import { updateWorkspaceSettings } from "@/lib/workspaces/settings";
import { cancelCheckNow } from "../support/check-fixtures";
import { callRoute } from "../support/api-fixtures";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { POST as cancelCheckRoute } from "@/app/api/v1/checks/[id]/cancel/route";

const RUNS = Number(process.env.BEACON_CHAOS_RUNS ?? 2);
const BASE_SEED = process.env.BEACON_CHAOS_SEED ? Number(process.env.BEACON_CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
const REPORT = process.env.BEACON_CHAOS_REPORT;
const PROVIDERS = ["ChatGPT", "Perplexity", "Gemini", "Claude"] as const;
const CHECKS = 2;
const PROMPTS_PER_CHECK = 5; // x 4 providers = 20 captures a check; every capture has a prompt of its own text
const WORKERS = 3;
// The chaos brand's domain (acme.example) as typed in full-width letters: what a server before 2026-12-05 stored.
const LEGACY_DOMAIN = "ａｃｍｅ.example";
const SEND_TIMEOUT_MS = 1_000;

/** Every invariant, in the order the report lists them. */
const INVARIANTS = [
  "quiescence: every check, attempt, setup call, delivery and re-analysis ends",
  "no worker process dies on its own",
  "every capture final",
  "at most one succeeded attempt per capture",
  "every paid answer stored",
  "every attempt ended, nothing held or in flight",
  "every check started exists, whole (a brand delete erases none)",
  "a schedule's slot makes one check, whoever runs it",
  "a schedule whose prompts were all archived is paused",
  "no capture spends more failed or unknown calls than its retry class allows",
  "retention deletes only ended attempts",
  "ledgers equal the rows behind them",
  "charged + in flight never above the budget",
  "grant charged + in flight never above its limit",
  "no provider call after a revoke, disable or allowlist removal",
  "every provider call has its attempt (a setup call: one call)",
  "every analysis matches its brand's current inputs",
  "the candidates' rollup equals the rows behind it",
  "the weekly domain and own page rollups equal the rows behind them",
  "the gap sources' rollups equal the rows behind them",
  "every rollup equals its rebuild from the rows behind it",
  "the costs rollup equals the attempts' sums",
  "no delivery sent twice to an id-less channel",
  "an access log sent again with its key is stored once",
  "a brand's domains are stored as the form stores them, once rewritten",
  "the repair pass repairs nothing",
] as const;
type Invariant = (typeof INVARIANTS)[number];

type Action =
  | { kind: "cancelCapture"; pick: number }
  | { kind: "cancelCheck"; pick: number; via: Via }
  | { kind: "retry"; pick: number }
  | { kind: "retryCheck"; pick: number; via: Via }
  | { kind: "kill"; worker: number }
  | { kind: "freeze"; worker: number }
  | { kind: "thaw" }
  | { kind: "flaky"; provider: number; errorRate: number; timeoutRate: number }
  | { kind: "restartDb"; mode: "fast" | "immediate" }
  | { kind: "raiseBudget" }
  | { kind: "brandEdit"; competitors: number; aliases: boolean; form: "fresh" | "stale" }
  | { kind: "reanalysisRetry" }
  | { kind: "grantLimit"; provider: number; factor: number | null }
  | { kind: "reprice"; provider: number; factor: number }
  | { kind: "revoke"; provider: number }
  | { kind: "disable"; provider: number }
  | { kind: "allowlist"; provider: number }
  | { kind: "wizard"; provider: number }
  | { kind: "evaluateAlerts"; where: "worker" | "here" }
  | { kind: "sendTest"; channel: number }
  | { kind: "sendAgain"; pick: number }
  | { kind: "receiver"; failRate: number; slowRate: number }
  | { kind: "retention"; batch: number }
  | { kind: "retag"; pick: number; tags: string[]; reword: boolean }
  | { kind: "brandDelete"; provider: number; during: "start" | "commit" }
  | { kind: "schedule"; provider: number; edit: "none" | "pause" | "retime" | "delete" | "archive" }
  | { kind: "ruleEdit"; change: "threshold" | "disable" | "rename" }
  | { kind: "trafficImport"; lines: number; cut: number | null; host: boolean }
  | { kind: "legacyDomains" };
// A whole check's cancel: through the REST API (an admin key) or the check page; both record an
// operation a worker runs (lib/checks/operations.ts), which marks the check before its job runs.
// A whole check's retry: as the page asks it (an operation) or run at once in the caller
// (retryCaptures, the function the operation's job runs), so it also meets the workers unqueued.
type Via = "api" | "page";
type Step = { at: number; action: Action };
type Plan = { steps: Step[]; budgetFactor: number; receiver: { failRate: number; slowRate: number } };

const provider = fc.nat(PROVIDERS.length - 1);
// The features' operations weigh twice the faults': a schedule has 3 to 10 steps and each should meet some.
const feature = <T,>(arbitrary: fc.Arbitrary<T>) => ({ arbitrary, weight: 2 });
const anyAction: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("cancelCapture" as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant("cancelCheck" as const), pick: fc.nat(CHECKS - 1), via: fc.constantFrom<Via>("api", "page") }),
  fc.record({ kind: fc.constant("retry" as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant("retryCheck" as const), pick: fc.nat(CHECKS - 1), via: fc.constantFrom<Via>("api", "page") }),
  fc.record({ kind: fc.constant("kill" as const), worker: fc.nat(WORKERS - 1) }),
  fc.record({ kind: fc.constant("freeze" as const), worker: fc.nat(WORKERS - 1) }),
  fc.constant({ kind: "thaw" as const }),
  fc.record({ kind: fc.constant("flaky" as const), provider, errorRate: fc.constantFrom(0, 0.3, 0.6), timeoutRate: fc.constantFrom(0, 0, 0.2) }),
  fc.record({ kind: fc.constant("restartDb" as const), mode: fc.constantFrom("fast" as const, "immediate" as const) }),
  fc.constant({ kind: "raiseBudget" as const }),
  // Which of the competitor pool the brand tracks afterwards (a bit each), and whether with aliases.
  // The Brands page's form as just opened, or opened at the run's start (refused if the brand changed since: nothing saved).
  feature(fc.record({ kind: fc.constant("brandEdit" as const), competitors: fc.nat(2 ** CHAOS_COMPETITORS.length - 1), aliases: fc.boolean(), form: fc.constantFrom("fresh" as const, "stale" as const) })),
  // The Brands page's "Try again" of a re-analysis (refused unless one failed; a waiting run is returned).
  fc.constant({ kind: "reanalysisRetry" as const }),
  // The grant's new limit: what is spent and in flight times this, plus a few captures' worth; null lifts it.
  feature(fc.record({ kind: fc.constant("grantLimit" as const), provider, factor: fc.constantFrom(0.5, 1, 2, null) })),
  // An operator's price edit of a connection while its calls run (the Instance page): each call is
  // charged at most what it reserved at its claim's prices, whatever ends it (the budget and grant samplers).
  feature(fc.record({ kind: fc.constant("reprice" as const), provider, factor: fc.constantFrom(0.5, 3, 10) })),
  fc.record({ kind: fc.constant("revoke" as const), provider }),
  fc.record({ kind: fc.constant("disable" as const), provider }),
  fc.record({ kind: fc.constant("allowlist" as const), provider }),
  feature(fc.record({ kind: fc.constant("wizard" as const), provider })),
  feature(fc.record({ kind: fc.constant("evaluateAlerts" as const), where: fc.constantFrom("worker" as const, "here" as const) })),
  fc.record({ kind: fc.constant("sendTest" as const), channel: fc.nat(1) }),
  // "Send again" of a delivery whose outcome is unknown (the user accepts a second post).
  fc.record({ kind: fc.constant("sendAgain" as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant("receiver" as const), failRate: fc.constantFrom(0, 0.3, 0.6), slowRate: fc.constantFrom(0, 0.3) }),
  // The hourly retention pass, in batches of this many attempts.
  feature(fc.record({ kind: fc.constant("retention" as const), batch: fc.constantFrom(3, 50) })),
  // A prompt's tags edited (the prompts page's form) while its answers are being recorded, and its
  // text reworded or not (its captures ask the wording their check was created with).
  feature(fc.record({ kind: fc.constant("retag" as const), pick: fc.nat(1000), tags: fc.subarray(["pricing", "support", "brand"]), reword: fc.boolean() })),
  // A brand added, then deleted while a check is started for it (the brands page beside the check
  // form): both sent at once, or the delete sent when the check's creation is about to commit.
  feature(fc.record({ kind: fc.constant("brandDelete" as const), provider, during: fc.constantFrom("start" as const, "commit" as const) })),
  // A schedule of the brand come due, run by two callers at once (two workers' minute crons; the
  // workers' own cron may be a third) while the schedules page pauses, retimes or deletes it.
  feature(fc.record({ kind: fc.constant("schedule" as const), provider, edit: fc.constantFrom("none" as const, "pause" as const, "retime" as const, "delete" as const, "archive" as const) })),
  // The new-brand rule edited (the alerts page) while an evaluation judges it beside the running captures.
  feature(fc.record({ kind: fc.constant("ruleEdit" as const), change: fc.constantFrom("threshold" as const, "disable" as const, "rename" as const) })),
  // An access log imported with an Idempotency-Key (POST /traffic/logs), its upload broken off
  // after this share of its lines or not, then sent again until it is in (a database restart
  // breaks it off too), beside the captures and the retention pass; with `host` or without (its
  // lines then belong to the brand's only domain as the import began, whatever the legacy domain
  // rewrite does to the brand meanwhile).
  feature(fc.record({ kind: fc.constant("trafficImport" as const), lines: fc.constantFrom(6_000, 13_000), cut: fc.constantFrom(null, 0.5, 0.95), host: fc.boolean() })),
  // The brand's domain as a server before 2026-12-05 stored it (as typed: full-width letters),
  // rewritten through updateBrand's path (canonicalizeStoredDomains, the workers' repair pass)
  // beside the running captures, so its answers are re-analysed.
  feature(fc.constant({ kind: "legacyDomains" as const })),
);
// BEACON_CHAOS_ACTIONS=schedule,ruleEdit: schedules of only these kinds of step (a feature's runs).
const ONLY = process.env.BEACON_CHAOS_ACTIONS?.split(",").filter(Boolean);
const action = ONLY?.length ? anyAction.filter((a) => ONLY.includes(a.kind)) : anyAction;
const schedule: fc.Arbitrary<Plan> = fc.record({
  // When each step fires: after this share of all captures has finished.
  steps: fc.array(fc.record({ at: fc.integer({ min: 0, max: 85 }), action }), { minLength: 3, maxLength: 10 }).map((steps) => steps.sort((a, b) => a.at - b.at)),
  // The budget, as a share of what the checks hold when created: below 1 some captures wait for budget.
  budgetFactor: fc.constantFrom(0.6, 1, 3),
  // The Slack receiver: refuses some posts (500), accepts some only after the sender gave up.
  receiver: fc.record({ failRate: fc.constantFrom(0, 0.3), slowRate: fc.constantFrom(0, 0.2) }),
});

/** Whether a session waits for a lock in a statement on brands (a brand delete queued behind a check's creation). */
const brandLockWaited = async () =>
  (await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%brands%'`)[0]!.n > 0;

let server: PrivatePostgres;
let fake: ChaosProvider;
let receiver: FlakyReceiver;
let receiverRandom: () => number = Math.random;

/** Test-only: every attempt retention deletes is kept here, and put back before the invariants are judged. */
const RETAINED = "chaos_retained_attempts";

beforeAll(async () => {
  server = await privatePostgres();
  // Retention deletes attempts the invariants are judged on (who answered, what each call cost):
  // this server's attempts are copied aside as they are deleted (a test-only trigger, not in
  // prisma/sql) and put back once the run is quiet, so the oracle sees every attempt ever made.
  await db().$executeRawUnsafe(`CREATE TABLE ${RETAINED} (LIKE attempts)`);
  await db().$executeRawUnsafe(`CREATE FUNCTION chaos_retain_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO ${RETAINED} SELECT OLD.*; RETURN OLD; END $$`);
  await db().$executeRawUnsafe(`CREATE TRIGGER chaos_retain_attempt AFTER DELETE ON attempts FOR EACH ROW EXECUTE FUNCTION chaos_retain_attempt()`);
  fake = await startChaosProvider({ latencyMs: [100, 400] });
  receiver = await startFlakyReceiver({ lateMs: SEND_TIMEOUT_MS + 300, random: () => receiverRandom() });
  // The workers inherit these (alert-channels.test.ts does the same): Slack "hooks" on a local
  // server, which the SSRF guard allows only with private URLs allowed; quick retries.
  Object.assign(process.env, {
    ALERTS_ALLOW_PRIVATE_URLS: "true",
    ALERTS_SLACK_BASE_URL: `${receiver.url}/slack/`,
    ALERTS_RETRY_BASE_MS: "20",
    ALERTS_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    BEACON_URL: "https://beacon.example.com",
    // An import whose process a database restart cut off is taken over in seconds, not a minute.
    BEACON_TRAFFIC_IMPORT_LEASE_SECONDS: "5",
  });
  reloadEnv();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await receiver?.close();
  await server?.dispose();
}, 60_000);

const WORKER_ENV = {
  BEACON_WORKER_CONCURRENCY: 4,
  BEACON_WORKER_LEASE_SECONDS: 5,
  BEACON_SWEEP_INTERVAL_SECONDS: 1,
  BEACON_REPAIR_INTERVAL_SECONDS: 2,
  BEACON_BUDGET_RECHECK_SECONDS: 1,
  BEACON_RETRY_BASE_MS: 50,
  BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: 1,
  // A result that cannot be written is given up after this (a database restart takes a second or two).
  BEACON_RESULT_WRITE_TIMEOUT_SECONDS: 15,
};

/** mulberry32, for the receiver's draws (the provider has its own). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 23);
/** The database's clock, right after a change committed (attempts start on it). */
const dbNow = async () => (await db().$queryRaw<{ at: Date }[]>`SELECT clock_timestamp()::timestamp(6) AS at`)[0]!.at;

/** A change that must stop calls: to `models` of a connection, from `atDb` (database clock) / `atMs` (this process's). */
type KillSwitch = { kind: "revoke" | "disable" | "allowlist"; provider: string; connectionId: string; models: string[]; atDb: Date; atMs: number; queuedWizards: string[] };

type RunReport = { run: number; seed: number; plan: Plan; failures: Partial<Record<Invariant, string[]>>; log: string[]; outcomes: Record<string, number> };

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
/** An access log of the brand's domain: `n` combined lines under `prefix`, every fifth a browser's (not stored). */
function chaosLog(prefix: string, n: number): { lines: string[]; crawls: number } {
  const lines = Array.from({ length: n }, (_, i) => {
    const ua = i % 5 === 4 ? "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" : GPTBOT;
    return `20.171.206.17 - - [08/Dec/2026:10:${String(i % 60).padStart(2, "0")}:00 +0000] "GET ${prefix}/${i % 97} HTTP/1.1" 200 512 "-" "${ua}"`;
  });
  return { lines, crawls: n - Math.floor(n / 5) };
}
/** The log's lines as an upload sends them; with `upTo`, it breaks off after that many (a dropped connection). */
async function* linesUpTo(lines: string[], upTo: number | null): AsyncGenerator<string> {
  for (const [i, line] of lines.entries()) {
    if (i === upTo) throw new Error("the upload broke off");
    yield line;
  }
}

/** One chaos run: a fresh workspace, its checks, the schedule, then quiescence and the invariants. */
async function chaosRun(run: number, seed: number, plan: Plan): Promise<RunReport> {
  const log: string[] = [`run ${run} (BEACON_CHAOS_SEED=${seed}): budget x${plan.budgetFactor}, receiver ${JSON.stringify(plan.receiver)}, steps ${JSON.stringify(plan.steps)}`];
  const failures: Partial<Record<Invariant, string[]>> = {};
  const fail = (invariant: Invariant, message: string) => (failures[invariant] ??= []).push(message);
  const outcomes: Record<string, number> = {};
  const count = (what: string, n = 1) => (outcomes[what] = (outcomes[what] ?? 0) + n);
  fake.seed(seed);
  receiverRandom = prng(seed ^ 0x5eed);
  receiver.setFaults(plan.receiver);

  const space: HttpSpace = await newHttpSpace({ prompts: CHECKS * PROMPTS_PER_CHECK, baseUrl: fake.baseUrl, providers: PROVIDERS });
  const apiKey = await createApiKey(space.workspaceId, { name: "chaos script", scope: "admin", createdById: space.owner.userId! });
  const callsFrom = fake.calls.length; // the calls of this run
  // This process's clock minus the database's (attempts' times are the database's, calls' ours).
  const asked = Date.now();
  const dbAt = (await dbNow()).getTime();
  const skewMs = (asked + Date.now()) / 2 - dbAt;
  const tagOf = (name: string) => space.tags[name]!;
  for (const name of PROVIDERS) {
    await db().providerConnection.update({ where: { id: space.connections[name]! }, data: { maxConcurrency: 3, timeoutMs: 1_500, breakerProbeTimeoutMs: 1_000 } });
    fake.setFaults(tagOf(name), { errorRate: 0, timeoutRate: 0, permanentErrorRate: 0.05 });
  }
  // Two Slack channels (no message id: a resend is a second post) for a budget rule and a new-brand rule.
  assertCan(canManageAlerts(space.owner));
  const channels: { id: string }[] = [];
  for (const i of [1, 2]) channels.push((await createChannel(space.workspaceId, { kind: "slack", name: `Chaos ${i}`, url: `${receiver.url}/slack/r${run}-${i}` })).channel);

  const checks: { checkId: string; captureIds: string[] }[] = [];
  for (let i = 0; i < CHECKS; i++) checks.push(await startCheckOf(space, space.promptIds.slice(i * PROMPTS_PER_CHECK, (i + 1) * PROMPTS_PER_CHECK), [...PROVIDERS]));
  const held = (await budgetNow(space.workspaceId)).reserved;
  let budget = BigInt(Math.ceil(Number(held) * plan.budgetFactor));
  await updateWorkspaceSettings(space.workspaceId, { name: "Chaos", monthlyBudgetMicros: Number(budget) });
  await createRule(space.workspaceId, space.owner.userId, ruleInputSchema.parse({ kind: "budget", name: "Spend", channelIds: channels.map((c) => c.id), params: { thresholds: [1, 10, 50, 100] } }));
  // Fires for each competitor of the pool the brand does not track while answers name it (brand edits change which).
  const newcomers = await createRule(space.workspaceId, space.owner.userId, ruleInputSchema.parse({ kind: "new_brand", name: "Newcomers", brandId: space.brandId, channelIds: channels.map((c) => c.id), params: { thresholdPercent: 1 } }));
  const captureIds = checks.flatMap((c) => c.captureIds);
  /** Checks started for a brand being deleted at the same time (brandDelete) or by a schedule (schedule), with their captures. */
  const spareChecks: { checkId: string; captureIds: string[] }[] = [];
  // Numbers each spare brand's prompt: a refused check adds nothing to spareChecks, and a prompt's text is unique among the live ones.
  let spares = 0;
  /** Each schedule's prompt (a text of its own), to count the checks its slot made. */
  const schedulePrompts = new Map<string, string>();

  const workers: WorkerProcess[] = await Promise.all(Array.from({ length: WORKERS }, (_, i) => startWorker(`chaos-${run}-${i}`, WORKER_ENV)));
  const frozen = new Set<WorkerProcess>();
  /** Workers killed or frozen: an answer they received may be lost by design (the sweeper ends their attempts). */
  const disturbed = new Set<string>();
  const details = () => `${log.join("\n")}\n${workers.map((w) => w.output().split("\n").slice(-40).join("\n")).join("\n")}`;

  // Sampled: charged + in flight never above the budget (which only ever goes up here), and on
  // each grant never above its limit. A limit lowered below what is already spent and in flight,
  // or a grant revoked, bounds it at what was there when the change committed (`floor`): nothing
  // more may be admitted. A grant being changed is not sampled until its floor is known.
  const floors = new Map<string, bigint>();
  const changing = new Set<string>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        const [row] = await db().$queryRaw<{ used: bigint; limit: bigint | null }[]>`
          SELECT sum(b."chargedMicros" + b."inFlightMicros")::bigint AS used, w."monthlyBudgetMicros" AS limit
          FROM workspaces w JOIN budget_periods b ON b."workspaceId" = w.id AND b."periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date
          WHERE w.id = ${space.workspaceId}::uuid GROUP BY w."monthlyBudgetMicros"`;
        if (row?.limit !== null && row && row.used > row.limit) fail("charged + in flight never above the budget", `sampled at ${iso(Date.now())}: ${row.used} > ${row.limit}`);
        for (const [connectionId, g] of await grantSpendNow(space.workspaceId)) {
          if (changing.has(connectionId)) continue;
          const floor = floors.get(connectionId) ?? 0n;
          const bound = !g.granted ? floor : g.limit === null ? null : g.limit > floor ? g.limit : floor;
          if (bound !== null && g.used > bound) {
            const name = PROVIDERS.find((p) => space.connections[p] === connectionId);
            fail("grant charged + in flight never above its limit", `sampled at ${iso(Date.now())}: ${name} (connection ${connectionId}) ${g.used} > ${bound} (${g.granted ? `limit ${g.limit}` : "revoked"}, ${floor} spent and in flight when it last changed)`);
          }
        }
      } catch {
        // the database may be restarting
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  /** A grant change: not sampled while it commits; afterwards bounded by what was there then. */
  const grantChange = async (connectionId: string, change: () => Promise<unknown>) => {
    changing.add(connectionId);
    try {
      await change();
      floors.set(connectionId, (await grantSpendNow(space.workspaceId)).get(connectionId)?.used ?? 0n);
    } finally {
      changing.delete(connectionId);
    }
  };

  const killSwitches: KillSwitch[] = [];
  const killSwitch = async (kind: KillSwitch["kind"], name: string, models: string[]) => {
    const connectionId = space.connections[name]!;
    const atMs = Date.now();
    const atDb = await dbNow();
    const queued = await db().setupSuggestion.findMany({ where: { connectionId, status: "queued" }, select: { id: true } });
    killSwitches.push({ kind, provider: name, connectionId, models, atDb, atMs, queuedWizards: queued.map((q) => q.id) });
  };
  const wizardDomains = new Map<string, string>(); // domain -> setup suggestion id
  const background: Promise<void>[] = [];
  /** Deliveries the user sent again ("Send again"): each may be posted once more. */
  const resent = new Map<string, number>();
  const repairDuringWizard: string[] = [];
  /** The access logs imported (trafficImport): their paths' prefix and the crawls each holds. */
  const trafficLogs: { prefix: string; crawls: number }[] = [];

  const finishedShare = async () => {
    const done = await db().capture.count({ where: { id: { in: captureIds }, status: { in: ["succeeded", "failed", "cancelled"] } } });
    return (done * 100) / captureIds.length;
  };
  /** The pick-th capture (modulo) among those in `statuses` now, or among all when none is. */
  const pickCapture = async (pick: number, statuses: ("running" | "failed" | "cancelled")[]) => {
    const rows = await db().capture.findMany({ where: { id: { in: captureIds }, status: { in: statuses } }, orderBy: { id: "asc" }, select: { id: true } });
    const from = rows.length ? rows.map((r) => r.id) : captureIds;
    return from[pick % from.length]!;
  };
  /** The schedule replaces the workers it kills at once: any other that has exited died on its own (a crash). */
  const diedOnItsOwn = (w: WorkerProcess) => {
    if (!w.running) fail("no worker process dies on its own", `${w.name} exited ${json(w.exit)}:\n${w.output().split("\n").slice(-30).join("\n")}`);
  };
  const replace = async (index: number) => {
    workers[index] = await startWorker(`chaos-${run}-${index}-${Date.now() % 100_000}`, WORKER_ENV);
  };
  /** Runs a user's operation; a refusal (UserError and the like: already finished, not allowed now) is a valid outcome, counted by its message. */
  const attempt = async (what: string, op: () => Promise<unknown>): Promise<boolean> => {
    try {
      await op();
      count(`${what}: done`);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error);
      count(`${what}: refused (${message})`);
      return false;
    }
  };

  // The brand as a Brands page form opened at the run's start read it (a "stale" brandEdit saves against it).
  const openedVersion = (await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, select: { analysisVersion: true } })).analysisVersion;
  let quiet = false;
  try {
    for (const step of plan.steps) {
      // Fire when the checks got this far, or when they stopped moving (everything may be waiting
      // for budget, or a worker is frozen): a deadline, not a sleep.
      await waitFor(async () => (await finishedShare().catch(() => -1)) >= step.at, { what: `${step.at} % done`, timeoutMs: 6_000, intervalMs: 50 }).catch(() => {});
      const a = step.action;
      log.push(`at ${(await finishedShare().catch(() => -1)).toFixed(0)} % (${iso(Date.now())}): ${JSON.stringify(a)}`);
      const name = "provider" in a ? PROVIDERS[a.provider]! : "";
      switch (a.kind) {
        case "cancelCapture":
          // A running capture if there is one (the cancel then meets its call), else any.
          await attempt("cancel capture", async () => cancelCapture(space.owner, await pickCapture(a.pick, ["running"])));
          break;
        case "cancelCheck":
          await attempt(`cancel check (${a.via})`, async () => {
            const checkId = checks[a.pick]!.checkId;
            if (a.via === "page") return requestCheckCancel(space.owner, checkId);
            const answer = await callRoute(cancelCheckRoute, { method: "POST", path: `/api/v1/checks/${checkId}/cancel`, apiKey: apiKey.key, params: { id: checkId } });
            if (answer.status !== 202) throw new Error(answer.body.error.message);
          });
          break;
        case "retry":
          // A failed or cancelled capture if there is one (the admin's case), else any (refused).
          await attempt("retry capture", async () => retryCaptures(space.owner, { captureId: await pickCapture(a.pick, ["failed", "cancelled"]) }));
          break;
        case "retryCheck":
          await attempt(`retry check (${a.via})`, () =>
            a.via === "page" ? requestCheckRetry(space.owner, checks[a.pick]!.checkId) : retryCaptures(space.owner, { checkId: checks[a.pick]!.checkId }),
          );
          break;
        case "kill":
          diedOnItsOwn(workers[a.worker]!);
          disturbed.add(workers[a.worker]!.workerId);
          frozen.delete(workers[a.worker]!);
          await workers[a.worker]!.kill();
          await replace(a.worker);
          break;
        case "freeze":
          if (!frozen.size) {
            disturbed.add(workers[a.worker]!.workerId);
            workers[a.worker]!.pause();
            frozen.add(workers[a.worker]!);
          }
          break;
        case "thaw":
          for (const w of frozen) w.resume();
          frozen.clear();
          break;
        case "flaky":
          fake.setFaults(tagOf(name), { errorRate: a.errorRate, timeoutRate: a.timeoutRate, permanentErrorRate: 0.05 });
          break;
        case "restartDb":
          await server.restart(a.mode);
          break;
        case "raiseBudget":
          budget *= 2n;
          assertCan(canManageWorkspaceSettings(space.owner));
          await attempt("raise budget", () => updateWorkspaceSettings(space.workspaceId, { name: "Chaos", monthlyBudgetMicros: Number(budget) }));
          break;
        case "retag": {
          assertCan(canEditTrackingSetup(space.owner));
          await attempt("retag", async () => {
            const prompt = await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[a.pick % space.promptIds.length]! } });
            const text = a.reword ? `${prompt.text.replace(/ \(reworded \d+\)$/, "")} (reworded ${step.at})` : prompt.text;
            await updatePrompt(space.workspaceId, prompt.id, promptInputSchema.parse({ text, tags: a.tags, country: prompt.country ?? undefined, city: prompt.city ?? undefined, language: prompt.language ?? undefined }));
          });
          break;
        }
        case "brandDelete": {
          // Either the check finds no brand, or the delete is refused and the check runs; its
          // captures join the run's (their money, calls and answers are judged like the others').
          assertCan(canEditTrackingSetup(space.owner));
          const n = ++spares;
          const spare = await createBrand(space.workspaceId, brandInputSchema.parse({ name: `Spare ${run}-${n}-${Date.now() % 100_000}`, aliases: [], domains: [], competitors: [] }));
          const prompt = await db().prompt.create({ data: { workspaceId: space.workspaceId, text: `Which CRM would spare team ${n} of ${space.workspaceId.slice(0, 8)} pick?` } });
          let deleting: Promise<boolean> | undefined;
          const sendDelete = () => (deleting = attempt(`brand delete (${a.during})`, () => deleteBrand(space.workspaceId, spare.id)));
          // "commit": the check written, not committed; the delete counts the brand's checks
          // now (the worst moment) and is held until the delete queues for the brand's lock.
          const unhook =
            a.during === "commit"
              ? onPausePoint("check:create-before-commit", async () => {
                  unhook?.();
                  let settled = false;
                  void sendDelete().finally(() => (settled = true));
                  await waitFor(async () => settled || (await brandLockWaited()), { what: "the brand delete waiting for the brand", timeoutMs: 5_000, intervalMs: 10 }).catch(() => {});
                })
              : undefined;
          const starting = startCheckOf(space, [prompt.id], [name], spare.id);
          if (a.during === "start") sendDelete();
          const [started] = await Promise.allSettled([starting]);
          unhook?.();
          await deleting;
          if (started.status === "fulfilled") {
            count("brand delete: its check started");
            spareChecks.push(started.value);
            captureIds.push(...started.value.captureIds);
          } else count(`brand delete: its check refused (${String(started.reason).split("\n")[0]!.slice(0, 120)})`);
          break;
        }
        case "schedule": {
          assertCan(canManageSchedules(space.owner));
          const n = schedulePrompts.size + 1;
          const prompt = await db().prompt.create({ data: { workspaceId: space.workspaceId, text: `Which CRM would scheduled team ${n} of ${space.workspaceId.slice(0, 8)} pick?` } });
          const input = scheduleInputSchema.parse({
            name: `Chaos ${n}`, brandId: space.brandId, prompts: { mode: "picked", promptIds: [prompt.id] }, providerConfigIds: [space.providers[name]!], samples: 1, cadence: "daily", minuteOfDay: 0,
          });
          // Refused when the provider was disabled by an earlier step (a kill switch): counted, nothing to run.
          let scheduleId = "";
          if (!(await attempt("schedule: create", async () => ({ id: scheduleId } = await createSchedule(space.workspaceId, space.owner.userId, input))))) break;
          schedulePrompts.set(scheduleId, prompt.id);
          // Due now, as at its minute.
          await db().schedule.update({ where: { id: scheduleId }, data: { nextRunAt: new Date(Date.now() - 1_000) } });
          const edit = () => {
            if (a.edit === "pause") return attempt("schedule: pause", () => pauseSchedule(space.workspaceId, scheduleId));
            if (a.edit === "retime") return attempt("schedule: retime", () => updateSchedule(space.workspaceId, scheduleId, { ...input, minuteOfDay: 720 }));
            if (a.edit === "delete") return attempt("schedule: delete", () => deleteSchedule(space.workspaceId, scheduleId));
            // Its one prompt archived while it runs: the schedule is paused (deletePromptsAction's path).
            if (a.edit === "archive") return attempt("schedule: prompt archived", () => archivePrompts(space.workspaceId, [prompt.id]));
            return Promise.resolve(true);
          };
          const [first, second, edited] = await Promise.all([runDueSchedules().catch(() => []), runDueSchedules().catch(() => []), edit()]);
          for (const r of [...first, ...second].filter((r) => r.scheduleId === scheduleId)) count(r.outcome === "failed" ? `schedule: failed (${r.message.slice(0, 100)})` : `schedule: ${r.outcome}`);
          // (An archive a fault refused archived nothing: the schedule rightly runs on.)
          if (a.edit === "archive" && edited) {
            const after = await db().schedule.findUnique({ where: { id: scheduleId } });
            if (after && !after.paused) fail("a schedule whose prompts were all archived is paused", `schedule ${scheduleId} still runs with its only prompt archived`);
          }
          // Its check (at most one: the invariants count them) joins the run's captures.
          const made = await db().capture.findMany({ where: { promptId: prompt.id }, select: { id: true, checkId: true } });
          for (const checkId of new Set(made.map((c) => c.checkId))) {
            const ids = made.filter((c) => c.checkId === checkId).map((c) => c.id);
            spareChecks.push({ checkId, captureIds: ids });
            captureIds.push(...ids);
          }
          break;
        }
        case "ruleEdit": {
          assertCan(canManageAlerts(space.owner));
          const rule = await db().alertRule.findUniqueOrThrow({ where: { id: newcomers.id }, include: { channels: true } });
          const params = rule.params as { thresholdPercent: number };
          const input = ruleInputSchema.parse({
            kind: "new_brand",
            name: a.change === "rename" ? `Newcomers ${Date.now() % 1000}` : rule.name,
            brandId: space.brandId,
            channelIds: rule.channels.map((c) => c.channelId),
            params: { thresholdPercent: a.change === "threshold" ? (params.thresholdPercent === 1 ? 2 : 1) : params.thresholdPercent },
          });
          // The edit sent while an evaluation judges the rule.
          await Promise.all([
            attempt("rule edit: evaluate", () => evaluateAlerts(space.workspaceId)),
            a.change === "disable"
              ? attempt("rule edit: disable", async () => {
                  await setRuleEnabled(space.workspaceId, newcomers.id, false);
                  await setRuleEnabled(space.workspaceId, newcomers.id, true);
                })
              : attempt(`rule edit: ${a.change}`, () => updateRule(space.workspaceId, newcomers.id, input)),
          ]);
          break;
        }
        case "brandEdit": {
          assertCan(canEditTrackingSetup(space.owner));
          await attempt("brand edit", async () => {
            const brand = await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, include: { competitors: true } });
            const competitors = CHAOS_COMPETITORS.filter((_, i) => a.competitors & (1 << i)).map((c) => ({
              id: brand.competitors.find((k) => k.name === c.name)?.id,
              name: c.name,
              aliases: a.aliases ? c.aliases : [],
            }));
            const input = brandInputSchema.parse({ name: brand.name, aliases: a.aliases ? [CHAOS_BRAND.alias] : [], domains: brand.domains, competitors });
            await updateBrand(space.workspaceId, space.brandId, input, { version: a.form === "stale" ? openedVersion : brand.analysisVersion });
          });
          break;
        }
        case "reanalysisRetry":
          assertCan(canEditTrackingSetup(space.owner));
          await attempt("re-analysis retry", () => retryReanalysis(space.workspaceId, space.brandId));
          break;
        case "grantLimit": {
          const connectionId = space.connections[name]!;
          await grantChange(connectionId, async () => {
            const used = (await grantSpendNow(space.workspaceId)).get(connectionId)?.used ?? 0n;
            const limit = a.factor === null ? null : Math.round(Number(used) * a.factor) + 20_000;
            // An operator's grant (re-granting a revoked connection is another feature; only a granted one's limit changes here).
            const granted = await db().connectionGrant.findUnique({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } } });
            if (granted) await attempt("grant limit", () => grantConnection({ connectionId, workspaceId: space.workspaceId, monthlySpendLimitMicros: limit }, null));
          });
          break;
        }
        case "reprice": {
          const connectionId = space.connections[name]!;
          const c = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
          const price = (micros: number | bigint) => Math.round(Number(micros) * a.factor);
          await attempt("reprice", async () =>
            updateConnection(
              connectionId,
              await connectionInputOf(connectionId, {
                inputPricePerMTokMicros: price(c.inputPricePerMTokMicros),
                outputPricePerMTokMicros: price(c.outputPricePerMTokMicros),
                searchPriceMicros: price(c.searchPriceMicros),
              }),
            ),
          );
          break;
        }
        case "revoke": {
          let done = false;
          await grantChange(space.connections[name]!, async () => (done = await attempt("revoke", () => revokeConnection(space.connections[name]!, space.workspaceId))));
          if (done) await killSwitch("revoke", name, CHAOS_MODELS);
          break;
        }
        case "disable":
          if (await attempt("disable", async () => updateConnection(space.connections[name]!, await connectionInputOf(space.connections[name]!, { enabled: false })))) {
            await killSwitch("disable", name, CHAOS_MODELS);
          }
          break;
        case "allowlist":
          if (await attempt("allowlist", async () => updateConnection(space.connections[name]!, await connectionInputOf(space.connections[name]!, { models: CHAOS_MODELS.slice(1) })))) {
            await killSwitch("allowlist", name, CHAOS_MODELS.slice(0, 1));
          }
          break;
        case "wizard": {
          // The wizard's call in flight while a repair pass runs: the provider holds the call
          // until the pass is done (at most a second: a frozen worker's pass may hold the repair
          // locks). In the background, so the schedule goes on meanwhile.
          assertCan(canRunSetup(space.owner));
          const domain = `${SETUP_MARKER}r${run}-${wizardDomains.size + 1}.com`;
          const hold = fake.hold((prompt) => prompt.includes(domain));
          let suggestionId: string;
          try {
            const input = startSetupSchema.parse({ domain, language: "en", connectionId: space.connections[name]! });
            ({ suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: space.owner.userId, ...input }));
            wizardDomains.set(domain, suggestionId);
            count("wizard: requested");
          } catch (error) {
            hold.release();
            count(`wizard: refused (${error instanceof Error ? error.message.split("\n")[0]!.slice(0, 120) : String(error)})`);
            break;
          }
          background.push(
            (async () => {
              // Until its call comes, or the job ended without one (refused), or a few seconds passed (no worker free).
              const ended = async () => (await db().setupSuggestion.findUnique({ where: { id: suggestionId }, select: { status: true } }))?.status !== "queued";
              await waitFor(async () => hold.arrived() || (await ended().catch(() => false)), { what: "the setup call", timeoutMs: 4_000, intervalMs: 50 }).catch(() => {});
              if (!hold.arrived()) return hold.release();
              const released = setTimeout(() => hold.release(), 1_000);
              // A pass the database cut off (a restart) repaired nothing it committed: counted, not judged.
              const report = await runRepairPass().catch((error: Error) => (count(`wizard: repair pass cut off (${error.message.slice(0, 60)})`), null));
              clearTimeout(released);
              hold.release();
              if (!report) return;
              if (Object.keys(report).length) repairDuringWizard.push(`with setup call ${suggestionId} (${name}) in flight: ${json(report)}`);
              count("wizard: repair pass during its call");
            })(),
          );
          break;
        }
        case "evaluateAlerts":
          assertCan(canManageAlerts(space.owner));
          await attempt(`evaluate alerts (${a.where})`, () => (a.where === "worker" ? requestAlertEvaluation(space.workspaceId) : evaluateAlerts(space.workspaceId)));
          break;
        case "sendTest":
          assertCan(canManageAlerts(space.owner));
          await attempt("send test", () => sendTestDelivery(space.workspaceId, channels[a.channel]!.id));
          break;
        case "sendAgain": {
          assertCan(canManageAlerts(space.owner));
          const unknown = await db().alertDelivery.findMany({ where: { workspaceId: space.workspaceId, status: "unknown" }, orderBy: { id: "asc" }, select: { id: true } });
          const pick = unknown[a.pick % Math.max(1, unknown.length)];
          if (!pick) count("send again: nothing unknown");
          else if (await attempt("send again", () => sendDeliveryAgain(space.workspaceId, pick.id))) resent.set(pick.id, (resent.get(pick.id) ?? 0) + 1);
          break;
        }
        case "receiver":
          receiver.setFaults({ failRate: a.failRate, slowRate: a.slowRate });
          break;
        case "trafficImport": {
          assertCan(canImportTraffic(space.owner));
          const prefix = `/chaos-${run}-${trafficLogs.length}`;
          const log = chaosLog(prefix, a.lines);
          trafficLogs.push({ prefix, crawls: log.crawls });
          const key = `chaos-import-${run}-${trafficLogs.length}`;
          const send = (upTo: number | null) => importTrafficLog(space.workspaceId, linesUpTo(log.lines, upTo), { host: a.host ? "acme.example" : undefined, idempotencyKey: key, acting: { workspaceId: space.workspaceId, userId: space.owner.userId! } });
          background.push(
            (async () => {
              if (a.cut !== null) await send(Math.floor(a.lines * a.cut)).then(() => fail("an access log sent again with its key is stored once", `${prefix}: an upload broken off was answered`), () => count("traffic import: broken off"));
              // Sent again until it answers: a database restart breaks it off too, and a request
              // whose lease has not yet passed (its end not recorded) holds the key for a while (409).
              await waitFor(() => send(null).then(() => true, (error: Error) => void count(`traffic import: sent again (${error.message.trim().split("\n")[0]!.slice(0, 50)})`)), {
                what: `the access log ${prefix} to be imported`,
                timeoutMs: 60_000,
                intervalMs: 250,
              }).then(
                () => count("traffic import: in"),
                (error: Error) => fail("an access log sent again with its key is stored once", `${prefix}: ${error.message.split("\n")[0]}`),
              );
            })(),
          );
          break;
        }
        case "legacyDomains": {
          const [legacy] = await db().$queryRaw<{ version: number }[]>`
            UPDATE brands SET domains = ${[LEGACY_DOMAIN]}::text[] WHERE id = ${space.brandId}::uuid RETURNING "analysisVersion" AS version`;
          // As a worker's maintenance does it (or a brand edit, which stores the form's way too);
          // again until the brand is rewritten, with a new analysis version (its answers re-analysed).
          const rewritten = async () => {
            const { rewritten } = await canonicalizeStoredDomains();
            if (rewritten.includes(space.brandId)) count("legacy domains: rewritten here");
            const now = await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, select: { domains: true, analysisVersion: true } });
            return now.domains.every((d) => d === normalizeHost(d)) && now.analysisVersion > legacy!.version;
          };
          background.push(
            waitFor(() => rewritten().catch(() => false), { what: "the legacy domain rewritten, with a new analysis version", timeoutMs: 60_000, intervalMs: 250 }).then(
              () => {
                count("legacy domains: rewritten");
              },
              (error: Error) => {
                fail("a brand's domains are stored as the form stores them, once rewritten", error.message.split("\n")[0]!);
              },
            ),
          );
          break;
        }
        case "retention":
          // The hourly pass with nothing kept (every ended attempt is old enough), beside the
          // running captures; in the background, so the schedule goes on meanwhile.
          background.push(
            runRetention({ attemptRetentionDays: 0, attemptBatchSize: a.batch }).then(
              (r) => {
                count("retention: passes");
                count("retention: batches", r.attemptBatches);
              },
              // A pass the database cut off (a restart) left whole batches deleted: counted, not judged.
              (error: Error) => {
                count(`retention: cut off (${error.message.split("\n")[0]!.slice(0, 60)})`);
              },
            ),
          );
          break;
      }
    }

    // Quiescence: every worker thawed and alive, providers and receiver healthy, budget ample,
    // grant limits lifted (revokes, disables and allowlists stay: their captures must end).
    for (const w of frozen) w.resume();
    frozen.clear();
    await Promise.all(background);
    for (const [i, w] of workers.entries()) {
      diedOnItsOwn(w);
      if (!w.running) await replace(i);
    }
    for (const name of PROVIDERS) fake.setFaults(tagOf(name), { errorRate: 0, timeoutRate: 0, permanentErrorRate: 0 });
    budget *= 100n;
    await updateWorkspaceSettings(space.workspaceId, { name: "Chaos", monthlyBudgetMicros: Number(budget) });
    for (const name of PROVIDERS) {
      const connectionId = space.connections[name]!;
      const granted = await db().connectionGrant.findUnique({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } } });
      if (granted?.monthlySpendLimitMicros != null) await grantChange(connectionId, () => grantConnection({ connectionId, workspaceId: space.workspaceId, monthlySpendLimitMicros: null }, null));
    }
    // The daily pass, so that every run's rules are judged once on its answers; its deliveries
    // meet the receiver as the schedule left it (a delivery ends after its attempts).
    await attempt("evaluate alerts (after the checks)", () => evaluateAlerts(space.workspaceId));
    const unsettled = async () => {
      const [row] = await db().$queryRaw<{ checks: number; operations: number; attempts: number; setups: number; deliveries: number; analyses: number; jobs: number }[]>`
        SELECT (SELECT count(*)::int FROM checks WHERE id = ANY(${[...checks, ...spareChecks].map((c) => c.checkId)}::uuid[]) AND status NOT IN ('completed', 'completed_with_errors', 'failed', 'cancelled')) AS checks,
               (SELECT count(*)::int FROM check_operations WHERE "workspaceId" = ${space.workspaceId}::uuid AND status IN ('queued', 'running')) AS operations,
               (SELECT count(*)::int FROM attempts WHERE "captureId" = ANY(${captureIds}::uuid[]) AND outcome IS NULL) AS attempts,
               (SELECT count(*)::int FROM setup_suggestions WHERE "workspaceId" = ${space.workspaceId}::uuid AND status IN ('queued', 'running')) AS setups,
               (SELECT count(*)::int FROM alert_deliveries WHERE "workspaceId" = ${space.workspaceId}::uuid AND status IN ('pending', 'sending')) AS deliveries,
               (SELECT count(*)::int FROM analysis_runs WHERE "workspaceId" = ${space.workspaceId}::uuid AND status IN ('queued', 'running')) AS analyses,
               (SELECT count(*)::int FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
                WHERE t.identifier = 'evaluate_alerts' AND j.payload::text LIKE ${`%${space.workspaceId}%`}) AS jobs`;
      return row!;
    };
    await waitFor(async () => Object.values(await unsettled()).every((n) => n === 0), { what: "every check, check operation, attempt, setup call, delivery and re-analysis to end", timeoutMs: 90_000, intervalMs: 200, details }).then(
      () => (quiet = true),
      async (error: Error) => {
        // What was left: the unfinished checks, captures, attempts and jobs.
        const left = await db().$queryRaw<unknown[]>`
          SELECT c.id, c.status, c."waitingFor", c."runToken", c."cancelRequestedAt", c."nextAttemptAt", c."attemptCount",
                 (SELECT json_agg(json_build_object('n', a.number, 'outcome', a.outcome, 'reason', a.reason, 'worker', a."workerId", 'token', a."runToken")) FROM attempts a WHERE a."captureId" = c.id) AS attempts,
                 (SELECT json_agg(json_build_object('id', j.id, 'run_at', j.run_at, 'attempts', j.attempts, 'locked_by', j.locked_by, 'last_error', left(j.last_error, 120))) FROM graphile_worker._private_jobs j WHERE j.key = 'capture:' || c.id) AS jobs
          FROM captures c WHERE c.id = ANY(${captureIds}::uuid[])
            AND (c.status NOT IN ('succeeded', 'failed', 'cancelled') OR EXISTS (SELECT 1 FROM attempts a WHERE a."captureId" = c.id AND a.outcome IS NULL))`;
        const setups = await db().setupSuggestion.findMany({ where: { workspaceId: space.workspaceId, status: { in: ["queued", "running"] } }, select: { id: true, status: true, updatedAt: true } });
        fail("quiescence: every check, attempt, setup call, delivery and re-analysis ends", `${error.message.split("\n")[0]}\nleft: ${json(await unsettled())}\ncaptures: ${json(left)}\nsetup calls: ${json(setups)}`);
      },
    );
  } finally {
    sampling = false;
    await sampler;
    for (const w of frozen) w.resume();
    await Promise.allSettled(background);
    await Promise.all(workers.map((w) => w.stop()));
  }
  if (!quiet) {
    // Leave nothing running into the next run.
    for (const c of checks) await cancelCheckNow(space.owner, c.checkId).catch(() => {});
    return { run, seed, plan, failures, log, outcomes };
  }

  // What retention deleted of this run's attempts: ended ones only (an open attempt deleted
  // would lose its run's result), put back (without their triggers: the ledgers and counters
  // never took them back) so that every invariant below is judged on every attempt made.
  const retained = await db().$queryRawUnsafe<{ id: string; captureId: string; number: number; outcome: string | null }[]>(
    `SELECT DISTINCT ON (id) id::text, "captureId"::text, number, outcome::text FROM ${RETAINED} WHERE "workspaceId" = $1::uuid`,
    space.workspaceId,
  );
  count("retention: attempts deleted", retained.length);
  for (const r of retained.filter((r) => r.outcome === null)) fail("retention deletes only ended attempts", `attempt ${r.number} of capture ${r.captureId} was deleted open`);
  await db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
    await tx.$executeRawUnsafe(
      `INSERT INTO attempts SELECT DISTINCT ON (r.id) r.* FROM ${RETAINED} r
       WHERE r."workspaceId" = $1::uuid AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.id = r.id)`,
      space.workspaceId,
    );
  });

  // ---- The invariants -------------------------------------------------------------------------
  // Every crawl of each access log stored once, in the raw rows and the daily rollup, however
  // often it was broken off and sent again.
  for (const { prefix, crawls } of trafficLogs) {
    // All of them the brand's site's: lines without a host too.
    const raw = await db().trafficHit.count({ where: { workspaceId: space.workspaceId, domain: "acme.example", path: { startsWith: `${prefix}/` } } });
    const rollup = (await db().trafficDaily.aggregate({ where: { workspaceId: space.workspaceId, path: { startsWith: `${prefix}/` } }, _sum: { hits: true } }))._sum.hits ?? 0;
    if (raw !== crawls || rollup !== crawls) fail("an access log sent again with its key is stored once", `${prefix}: ${crawls} crawls in the log, ${raw} raw rows, ${rollup} in the daily rollup`);
  }
  // The Costs page's rollup kept every ended attempt once, those retention deleted (put back
  // above, without triggers) included: it never subtracts.
  const costs = await attemptRollupAndRebuild(space.workspaceId);
  if (json(costs.kept) !== json(costs.rebuilt)) {
    fail("the costs rollup equals the attempts' sums", `rollup_attempts has ${json(costs.kept.filter((r) => !costs.rebuilt.some((b) => json(b) === json(r))).slice(0, 5))}, the attempts give ${json(costs.rebuilt.filter((r) => !costs.kept.some((k) => json(k) === json(r))).slice(0, 5))}`);
  }
  const captures = await db().capture.findMany({
    where: { id: { in: captureIds } },
    include: { attempts: { orderBy: { number: "asc" } }, promptVersion: { select: { text: true, language: true } }, mentions: true, candidates: true },
  });
  for (const [scheduleId, promptId] of schedulePrompts) {
    const made = await db().capture.findMany({ where: { promptId }, distinct: ["checkId"], select: { checkId: true } });
    if (made.length > 1) fail("a schedule's slot makes one check, whoever runs it", `schedule ${scheduleId} made ${made.length} checks for one slot: ${made.map((c) => c.checkId).join(", ")}`);
  }
  for (const spare of spareChecks) {
    const kept = await db().capture.count({ where: { checkId: spare.checkId } });
    if (kept !== spare.captureIds.length) {
      fail("every check started exists, whole (a brand delete erases none)", `check ${spare.checkId} was started with ${spare.captureIds.length} captures; ${kept} exist`);
    }
  }
  // When each timed-out attempt's worker saw its timeout due (lib/lifecycle/run/failure.ts' event).
  const timeouts = await db().event.findMany({ where: { captureId: { in: captureIds }, kind: "attempt_timed_out" }, select: { captureId: true, data: true } });
  const timedOutAt = (captureId: string, attempt: { startedAt: Date; endedAt: Date | null }) =>
    timeouts
      .filter((e) => e.captureId === captureId)
      .map((e) => Date.parse((e.data as { noticedAt: string }).noticedAt))
      .find((t) => t >= attempt.startedAt.getTime() && (attempt.endedAt === null || t <= attempt.endedAt.getTime()));
  const attemptsText = (c: (typeof captures)[number]) => json(c.attempts.map((a) => ({ n: a.number, outcome: a.outcome, reason: a.reason, cost: a.costMicros, startedAt: a.startedAt, endedAt: a.endedAt, latencyMs: a.latencyMs, worker: a.workerId })));
  for (const c of captures) {
    const label = `capture ${c.id} (${c.status})`;
    if (!isTerminal(c.status)) fail("every capture final", `${label} is not final`);
    const succeeded = c.attempts.filter((a) => a.outcome === "succeeded");
    if (succeeded.length > 1) fail("at most one succeeded attempt per capture", `${label} has ${succeeded.length} succeeded attempts (paid ${succeeded.length} times): ${attemptsText(c)}`);
    if (c.status === "succeeded") {
      if (succeeded.length === 0) fail("every paid answer stored", `${label} has no succeeded attempt: ${attemptsText(c)}`);
      else if (c.costMicros !== succeeded.at(-1)!.costMicros) fail("every paid answer stored", `${label} keeps an answer costing ${c.costMicros}, its succeeded attempt cost ${succeeded.at(-1)!.costMicros}`);
      if (c.answerText === null) fail("every paid answer stored", `${label} has no answer text`);
      if (c.answerIsPartial) fail("every paid answer stored", `${label} keeps a partial answer`);
    } else if (succeeded.length) {
      fail("every paid answer stored", `${label} ended ${c.status} although attempt ${succeeded.map((a) => a.number).join(", ")} succeeded (a paid answer not kept): ${attemptsText(c)}`);
    }
    const open = c.attempts.filter((a) => a.outcome === null || a.reservedMicros !== 0n);
    if (open.length) fail("every attempt ended, nothing held or in flight", `${label}: attempts not ended or still holding: ${attemptsText(c)}`);
    if (c.reservedMicros !== 0n) fail("every attempt ended, nothing held or in flight", `${label} still holds ${c.reservedMicros}`);
  }
  // The retry budget (DESIGN.md "Retries by error class"), judged on every attempt made (those
  // retention deleted put back above): between two admin retries a capture spends at most its
  // connection's maxAttempts on failed and unknown calls (an admin retry gives a fresh allowance),
  // an unknown outcome is retried at most unknownRetries times (an admin retry allows one more
  // call, which ends it if unknown again), and its counters (captures."spentAttempts",
  // "unknownAttempts") are the attempts behind them.
  const retries = await db().event.findMany({ where: { workspaceId: space.workspaceId, kind: "capture_retried" }, select: { captureId: true, createdAt: true } });
  const policies = new Map(
    (await db().providerConnection.findMany({ where: { id: { in: Object.values(space.connections) } }, select: { id: true, maxAttempts: true, unknownRetries: true } })).map((p) => [p.id, p]),
  );
  for (const c of captures) {
    const label = `capture ${c.id} (${c.status})`;
    const policy = policies.get(c.connectionId)!;
    const spent = c.attempts.filter((a) => a.outcome === "failed" || a.outcome === "unknown");
    const unknown = spent.filter((a) => a.outcome === "unknown");
    if (c.spentAttempts !== spent.length || c.unknownAttempts !== unknown.length) {
      fail("no capture spends more failed or unknown calls than its retry class allows", `${label} counts ${c.spentAttempts} spent (${c.unknownAttempts} unknown), its attempts ${spent.length} (${unknown.length}): ${attemptsText(c)}`);
    }
    // Each admin retry starts a new allowance: its transaction began before the attempts after it.
    const starts = retries.filter((r) => r.captureId === c.id).map((r) => r.createdAt.getTime()).sort((x, y) => x - y);
    const bounds = [-Infinity, ...starts, Infinity];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const inAllowance = spent.filter((a) => a.startedAt.getTime() > bounds[i]! && a.startedAt.getTime() <= bounds[i + 1]!);
      const unknownSoFar = unknown.filter((a) => a.startedAt.getTime() <= bounds[i + 1]!).length;
      if (inAllowance.length > policy.maxAttempts || unknownSoFar > policy.unknownRetries + 1 + i) {
        fail(
          "no capture spends more failed or unknown calls than its retry class allows",
          `${label}, allowance ${i + 1} of ${bounds.length - 1}: ${inAllowance.length} failed or unknown calls (at most ${policy.maxAttempts}), ${unknownSoFar} unknown so far (at most ${policy.unknownRetries + 1 + i}): ${attemptsText(c)}`,
        );
      }
    }
  }
  const after = await budgetNow(space.workspaceId);
  if (after.reserved !== 0n || after.inFlight !== 0n) fail("every attempt ended, nothing held or in flight", `the budget still holds ${after.reserved} and has ${after.inFlight} in flight`);
  if (after.charged > budget) fail("charged + in flight never above the budget", `charged ${after.charged} > ${budget} at the end`);
  try {
    await expectBudgetConsistent(space.workspaceId);
  } catch (error) {
    fail("ledgers equal the rows behind them", (error as Error).message.split("\n").slice(0, 3).join(" "));
  }

  // Calls: each capture's by its connection, model and prompt as its check asked it (a reworded
  // prompt's captures still ask their version); each setup call's by its site.
  const calls = fake.calls.slice(callsFrom);
  const tagToProvider = new Map(PROVIDERS.map((p) => [space.tags[p]!, p]));
  const providerOfConnection = new Map(PROVIDERS.map((p) => [space.connections[p]!, p]));
  const callsOf = new Map<string, ProviderCall[]>();
  const captureKey = (tag: string, model: string, prompt: string) => `${tag}\n${model}\n${prompt}`;
  const byKey = new Map(captures.map((c) => [captureKey(space.tags[providerOfConnection.get(c.connectionId)!]!, c.model, c.promptVersion.text), c.id]));
  const wizardCalls = new Map<string, ProviderCall[]>();
  for (const call of calls) {
    if (!tagToProvider.has(call.tag)) continue; // another run's leftovers
    const domain = [...wizardDomains.keys()].find((d) => call.prompt.includes(d));
    if (domain) {
      wizardCalls.set(wizardDomains.get(domain)!, [...(wizardCalls.get(wizardDomains.get(domain)!) ?? []), call]);
      continue;
    }
    const captureId = byKey.get(captureKey(call.tag, call.model, call.prompt));
    if (!captureId) {
      fail("every provider call has its attempt (a setup call: one call)", `call #${call.seq} to ${tagToProvider.get(call.tag)} (${call.model}) at ${iso(call.at)} matches no capture or setup call: ${call.prompt.slice(0, 80)}`);
      continue;
    }
    callsOf.set(captureId, [...(callsOf.get(captureId) ?? []), call]);
  }
  const callsText = (list: ProviderCall[]) => json(list.map((c) => `#${c.seq} ${iso(c.at)} ${c.outcome}${c.closedByClient ? " (closed by the client)" : ""}`));
  // A setup call is one call: a run swept while calling ends failed and charged, never calls again.
  for (const [id, made] of wizardCalls) if (made.length > 1) fail("every provider call has its attempt (a setup call: one call)", `setup call ${id} called the provider ${made.length} times: ${callsText(made)}`);
  for (const c of captures) {
    const made = callsOf.get(c.id) ?? [];
    if (made.length > c.attempts.length) fail("every provider call has its attempt (a setup call: one call)", `capture ${c.id} (${c.status}): ${made.length} calls ${callsText(made)} but ${c.attempts.length} attempts ${attemptsText(c)}`);
    // A whole answer the provider sent is paid: its attempt (the one running when the request
    // came) must have succeeded, unless its worker was killed or frozen (the sweeper then ends the
    // attempt by design; its repairs are counted below) or a cancel ended it (the worker aborts
    // the call, maybe before it read the answer the server had already written, and charges the
    // estimate; an answer it did read ends succeeded, which the attempt checks above hold).
    for (const call of made.filter((m) => m.outcome === "answered" && !m.closedByClient)) {
      const at = call.at - skewMs;
      const running = c.attempts.filter((a) => a.startedAt.getTime() <= at + 50).at(-1);
      // An answer finished after the worker saw its call's timeout due may miss the one turn the
      // worker waits before it aborts: lost to the timeout by design, and charged its estimate.
      const noticed = running && running.reason === "timeout" ? timedOutAt(c.id, running) : undefined;
      const lateForTimeout = noticed !== undefined && call.sentAt !== undefined && call.sentAt - skewMs >= noticed;
      if (lateForTimeout) {
        count("answers sent after the call's timeout came due");
        if (!running!.costIsEstimate || running!.costMicros <= 0n) fail("every paid answer stored", `capture ${c.id}: call #${call.seq}'s answer came after its timeout, and attempt ${running!.number} is not charged its estimate: ${attemptsText(c)}`);
      }
      if (!running) {
        fail("every paid answer stored", `capture ${c.id} (${c.status}): call #${call.seq} answered at ${iso(call.at)} before any attempt started: ${attemptsText(c)}`);
      } else if (running.outcome !== "succeeded" && running.outcome !== "cancelled" && !disturbed.has(running.workerId) && !lateForTimeout) {
        // When the answer went out on the database's clock, against the attempt's start and its call's latency (to its abort, if it timed out).
        const sent = call.sentAt === undefined ? "never sent whole" : `sent ${iso(call.sentAt - skewMs)} (database clock)`;
        fail("every paid answer stored", `capture ${c.id} (${c.status}): call #${call.seq} came at ${iso(call.at - skewMs)}, its answer ${sent} (a paid answer), but attempt ${running.number} ended ${running.outcome} (${running.reason ?? "no reason"}): ${attemptsText(c)}`);
      }
    }
  }
  for (const k of killSwitches) {
    const label = `${k.kind} of ${k.provider} (${k.models.join(", ")}) committed by ${k.atDb.toISOString().slice(11, 23)} (database clock)`;
    for (const c of captures.filter((c) => c.connectionId === k.connectionId && k.models.includes(c.model))) {
      const made = callsOf.get(c.id) ?? [];
      const before = c.attempts.filter((a) => a.startedAt <= k.atDb).length;
      // Each attempt makes at most one call: more calls than attempts started before the change means one started after it.
      if (made.length > before) fail("no provider call after a revoke, disable or allowlist removal", `${label}: capture ${c.id} (${c.status}) got ${made.length} calls ${callsText(made)}, only ${before} of its attempts started before: ${attemptsText(c)}`);
    }
    for (const id of k.queuedWizards) {
      const late = (wizardCalls.get(id) ?? []).filter((call) => call.at > k.atMs);
      if (late.length) fail("no provider call after a revoke, disable or allowlist removal", `${label}: setup call ${id}, still queued then, called the provider afterwards: ${callsText(late)}`);
    }
  }

  // The legacy domain step's brand: its domain as the form stores it (ASCII), whatever edits came between.
  const stored = await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, select: { domains: true } });
  if (stored.domains.some((d) => d !== normalizeHost(d))) fail("a brand's domains are stored as the form stores them, once rewritten", `brand ${space.brandId} keeps ${json(stored.domains)}`);

  // Analysis: every succeeded capture's mentions are what analysing its stored answer with the brand as it is now gives.
  // Each capture's own brand: the run's, or a spare one that a brandDelete kept.
  const brands = new Map(
    (await db().brand.findMany({ where: { workspaceId: space.workspaceId }, include: { competitors: { orderBy: { createdAt: "asc" } } } })).map((b) => [b.id, b]),
  );
  const mentionKey = (m: { kind: string; brandId: string | null; competitorId: string | null; name: string; mentioned: boolean; count: number; position: number | null; sentiment: string | null }) =>
    `${m.kind}:${m.brandId ?? m.competitorId}:${m.name}:${m.mentioned}:${m.count}:${m.position}:${m.sentiment}`;
  for (const c of captures.filter((c) => c.status === "succeeded")) {
    const brand = brands.get(c.brandId)!;
    const analysis = analyzeAnswer({ answer: c.answerText ?? "", brand, competitors: brand.competitors, language: c.promptVersion.language });
    const expected = mentionRows(analysis, brand.id, brand.competitors.map((k) => k.id)).map(mentionKey).sort();
    const stored = c.mentions.map(mentionKey).sort();
    if (!isDeepStrictEqual(stored, expected)) {
      const missing = expected.filter((m) => !stored.includes(m));
      const extra = stored.filter((m) => !expected.includes(m));
      fail("every analysis matches its brand's current inputs", `capture ${c.id} (analysed ${c.analyzedAt?.toISOString() ?? "never"}): missing ${json(missing)}, stale ${json(extra)}; brand now tracks ${json(brand.competitors.map((k) => `${k.name}[${k.aliases.join("|")}]`))}, aliases ${json(brand.aliases)}`);
    }
    // Its untracked candidates (competitor discovery) too, stored with the capture's finish, provider and prompt.
    const expectedCandidates = candidateRows(analysis).map((k) => `${k.key}:${k.name}`).sort();
    const storedCandidates = c.candidates.map((k) => `${k.key}:${k.name}`).sort();
    if (!isDeepStrictEqual(storedCandidates, expectedCandidates)) {
      fail("every analysis matches its brand's current inputs", `capture ${c.id}: candidates ${json(storedCandidates)}, analysing it now gives ${json(expectedCandidates)}`);
    }
    const copied = c.candidates.find((k) => k.finishedAt.getTime() !== c.finishedAt?.getTime() || k.providerConfigId !== c.providerConfigId || k.promptId !== c.promptId);
    if (copied) fail("every analysis matches its brand's current inputs", `capture ${c.id}: candidate ${copied.key} carries another finish, provider or prompt than its capture`);
  }
  // The rollup discovery reads, against the same sums over the raw rows.
  const rollupOf = (rows: { day: Date | string; providerConfigId: string; promptId: string; key: string; name: string; answers: number | bigint }[]) =>
    rows.map((r) => `${typeof r.day === "string" ? r.day : r.day.toISOString().slice(0, 10)}|${r.providerConfigId}|${r.promptId}|${r.key}|${r.name}|${Number(r.answers)}`).sort();
  const kept = rollupOf(await db().candidateRollup.findMany({ where: { brandId: space.brandId, answers: { not: 0 } } }));
  const rebuilt = rollupOf(
    await db().$queryRaw<{ day: Date; providerConfigId: string; promptId: string; key: string; name: string; answers: bigint }[]>`
      SELECT c."finishedAt"::date AS day, c."providerConfigId"::text AS "providerConfigId", c."promptId"::text AS "promptId", k.key, k.name, count(*) AS answers
      FROM captures c JOIN capture_candidates k ON k."captureId" = c.id
      WHERE c."brandId" = ${space.brandId}::uuid AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5`,
  );
  if (!isDeepStrictEqual(kept, rebuilt)) {
    fail("the candidates' rollup equals the rows behind it", `rollup_candidates has ${json(kept.filter((r) => !rebuilt.includes(r)).slice(0, 5))}, the raw rows give ${json(rebuilt.filter((r) => !kept.includes(r)).slice(0, 5))}`);
  }
  // And the one without the prompt: the same sums over the prompts.
  const keptDays = (await db().candidateDayRollup.findMany({ where: { brandId: space.brandId, answers: { not: 0 } } })).map((r) => `${r.day.toISOString().slice(0, 10)}|${r.providerConfigId}|${r.key}|${r.name}|${r.answers}`).sort();
  const daysOf = new Map<string, number>();
  for (const row of rebuilt) {
    const [day, provider, , key, name, answers] = row.split("|");
    const at = `${day}|${provider}|${key}|${name}`;
    daysOf.set(at, (daysOf.get(at) ?? 0) + Number(answers));
  }
  const rebuiltDays = [...daysOf].map(([at, answers]) => `${at}|${answers}`).sort();
  if (!isDeepStrictEqual(keptDays, rebuiltDays)) {
    fail("the candidates' rollup equals the rows behind it", `rollup_candidate_days has ${json(keptDays.filter((r) => !rebuiltDays.includes(r)).slice(0, 5))}, the raw rows give ${json(rebuiltDays.filter((r) => !keptDays.includes(r)).slice(0, 5))}`);
  }
  // And the one without the provider either: the same sums over prompts and providers.
  const keptTotals = (await db().candidateDayTotalRollup.findMany({ where: { brandId: space.brandId, answers: { not: 0 } } })).map((r) => `${r.day.toISOString().slice(0, 10)}|${r.key}|${r.name}|${r.answers}`).sort();
  const totalsOf = new Map<string, number>();
  for (const row of rebuilt) {
    const [day, , , key, name, answers] = row.split("|");
    const at = `${day}|${key}|${name}`;
    totalsOf.set(at, (totalsOf.get(at) ?? 0) + Number(answers));
  }
  const rebuiltTotals = [...totalsOf].map(([at, answers]) => `${at}|${answers}`).sort();
  if (!isDeepStrictEqual(keptTotals, rebuiltTotals)) {
    fail("the candidates' rollup equals the rows behind it", `rollup_candidate_day_totals has ${json(keptTotals.filter((r) => !rebuiltTotals.includes(r)).slice(0, 5))}, the raw rows give ${json(rebuiltTotals.filter((r) => !keptTotals.includes(r)).slice(0, 5))}`);
  }

  // The weekly domain rollups (per tag: the prompts' current tags) and the own pages' counts,
  // against the same sums over the raw rows; rows left at zero count as absent.
  const rollupDiffs = await db().$queryRaw<{ rollup: string; row: string }[]>`
    WITH cap AS (
      SELECT c.id, c."finishedAt", c."providerConfigId", c."promptId" FROM captures c
      WHERE c."brandId" = ${space.brandId}::uuid AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
    ),
    raw_weeks AS (
      SELECT date_trunc('week', cap."finishedAt")::date AS week, cap."providerConfigId", ci.domain, count(*)::int AS citations, count(*) FILTER (WHERE ci."isOwnDomain")::int AS own
      FROM cap JOIN citations ci ON ci."captureId" = cap.id AND ci."citedInText" GROUP BY 1, 2, 3
    ),
    kept_weeks AS (
      SELECT week, "providerConfigId", domain, citations, "ownCitations" FROM rollup_domain_weeks
      WHERE "brandId" = ${space.brandId}::uuid AND (citations <> 0 OR "ownCitations" <> 0)
    ),
    raw_tag_weeks AS (
      SELECT t.tag, date_trunc('week', cap."finishedAt")::date AS week, cap."providerConfigId", ci.domain, count(*)::int AS citations, count(*) FILTER (WHERE ci."isOwnDomain")::int AS own
      FROM cap JOIN prompts p ON p.id = cap."promptId" CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
      JOIN citations ci ON ci."captureId" = cap.id AND ci."citedInText" GROUP BY 1, 2, 3, 4
    ),
    kept_tag_weeks AS (
      SELECT tag, week, "providerConfigId", domain, citations, "ownCitations" FROM rollup_tag_domain_weeks
      WHERE "brandId" = ${space.brandId}::uuid AND (citations <> 0 OR "ownCitations" <> 0)
    ),
    raw_pages AS (
      SELECT cap."finishedAt"::date AS day, cap."providerConfigId", cap."promptId", ci.url, ci.domain, count(*)::int AS citations, count(DISTINCT cap.id)::int AS answers
      FROM cap JOIN citations ci ON ci."captureId" = cap.id AND ci."citedInText" AND ci."isOwnDomain" GROUP BY 1, 2, 3, 4, 5
    ),
    kept_pages AS (
      SELECT day, "providerConfigId", "promptId", url, domain, citations, answers FROM rollup_own_pages
      WHERE "brandId" = ${space.brandId}::uuid AND (citations <> 0 OR answers <> 0)
    )
    SELECT 'rollup_domain_weeks has' AS rollup, row_to_json(x)::text AS row FROM (SELECT * FROM kept_weeks EXCEPT SELECT * FROM raw_weeks) x
    UNION ALL SELECT 'rollup_domain_weeks lacks', row_to_json(x)::text FROM (SELECT * FROM raw_weeks EXCEPT SELECT * FROM kept_weeks) x
    UNION ALL SELECT 'rollup_tag_domain_weeks has', row_to_json(x)::text FROM (SELECT * FROM kept_tag_weeks EXCEPT SELECT * FROM raw_tag_weeks) x
    UNION ALL SELECT 'rollup_tag_domain_weeks lacks', row_to_json(x)::text FROM (SELECT * FROM raw_tag_weeks EXCEPT SELECT * FROM kept_tag_weeks) x
    UNION ALL SELECT 'rollup_own_pages has', row_to_json(x)::text FROM (SELECT * FROM kept_pages EXCEPT SELECT * FROM raw_pages) x
    UNION ALL SELECT 'rollup_own_pages lacks', row_to_json(x)::text FROM (SELECT * FROM raw_pages EXCEPT SELECT * FROM kept_pages) x`;
  for (const d of rollupDiffs.slice(0, 5)) fail("the weekly domain and own page rollups equal the rows behind them", `${d.rollup} ${d.row}`);

  // The gap sources' rollups per prompt, per tag and per week (the daily one without prompt or tag
  // is checked by the property test): gap answers, their cited domains and the competitors named.
  const gapDiffs = await db().$queryRaw<{ rollup: string; row: string }[]>`
    WITH gap AS (
      SELECT c.id, c."finishedAt"::date AS day, c."providerConfigId", c."promptId" FROM captures c
      WHERE c."brandId" = ${space.brandId}::uuid AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
        AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
        AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
    ),
    cited AS (
      SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
      FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText" GROUP BY 1, 2
    ),
    per_answer AS (
      SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
      UNION ALL SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
      UNION ALL SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
        JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
    ),
    raw_gap AS (
      SELECT day, "providerConfigId", "promptId", domain, name, count(*)::int AS answers, count(*) FILTER (WHERE off)::int AS "offSite"
      FROM per_answer GROUP BY 1, 2, 3, 4, 5
    ),
    kept_gap AS (
      SELECT day, "providerConfigId", "promptId", domain, name, answers, "offSite" FROM rollup_gap_source_prompts
      WHERE "brandId" = ${space.brandId}::uuid AND answers <> 0
    ),
    raw_tag_gap AS (
      SELECT t.tag, r.day, r."providerConfigId", r.domain, r.name, sum(r.answers)::int AS answers, sum(r."offSite")::int AS "offSite"
      FROM raw_gap r JOIN prompts p ON p.id = r."promptId" CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
      GROUP BY 1, 2, 3, 4, 5
    ),
    kept_tag_gap AS (
      SELECT tag, day, "providerConfigId", domain, name, answers, "offSite" FROM rollup_tag_gap_sources
      WHERE "brandId" = ${space.brandId}::uuid AND answers <> 0
    ),
    raw_gap_weeks AS (
      SELECT date_trunc('week', day)::date AS week, "providerConfigId", domain, name, sum(answers)::int AS answers, sum("offSite")::int AS "offSite"
      FROM raw_gap GROUP BY 1, 2, 3, 4
    ),
    kept_gap_weeks AS (
      SELECT week, "providerConfigId", domain, name, answers, "offSite" FROM rollup_gap_source_weeks
      WHERE "brandId" = ${space.brandId}::uuid AND answers <> 0
    ),
    raw_tag_gap_weeks AS (
      SELECT tag, date_trunc('week', day)::date AS week, "providerConfigId", domain, name, sum(answers)::int AS answers, sum("offSite")::int AS "offSite"
      FROM raw_tag_gap GROUP BY 1, 2, 3, 4, 5
    ),
    kept_tag_gap_weeks AS (
      SELECT tag, week, "providerConfigId", domain, name, answers, "offSite" FROM rollup_tag_gap_source_weeks
      WHERE "brandId" = ${space.brandId}::uuid AND answers <> 0
    )
    SELECT 'rollup_gap_source_prompts has' AS rollup, row_to_json(x)::text AS row FROM (SELECT * FROM kept_gap EXCEPT SELECT * FROM raw_gap) x
    UNION ALL SELECT 'rollup_gap_source_prompts lacks', row_to_json(x)::text FROM (SELECT * FROM raw_gap EXCEPT SELECT * FROM kept_gap) x
    UNION ALL SELECT 'rollup_tag_gap_sources has', row_to_json(x)::text FROM (SELECT * FROM kept_tag_gap EXCEPT SELECT * FROM raw_tag_gap) x
    UNION ALL SELECT 'rollup_tag_gap_sources lacks', row_to_json(x)::text FROM (SELECT * FROM raw_tag_gap EXCEPT SELECT * FROM kept_tag_gap) x
    UNION ALL SELECT 'rollup_gap_source_weeks has', row_to_json(x)::text FROM (SELECT * FROM kept_gap_weeks EXCEPT SELECT * FROM raw_gap_weeks) x
    UNION ALL SELECT 'rollup_gap_source_weeks lacks', row_to_json(x)::text FROM (SELECT * FROM raw_gap_weeks EXCEPT SELECT * FROM kept_gap_weeks) x
    UNION ALL SELECT 'rollup_tag_gap_source_weeks has', row_to_json(x)::text FROM (SELECT * FROM kept_tag_gap_weeks EXCEPT SELECT * FROM raw_tag_gap_weeks) x
    UNION ALL SELECT 'rollup_tag_gap_source_weeks lacks', row_to_json(x)::text FROM (SELECT * FROM raw_tag_gap_weeks EXCEPT SELECT * FROM kept_tag_gap_weeks) x`;
  for (const d of gapDiffs.slice(0, 5)) fail("the gap sources' rollups equal the rows behind them", `${d.rollup} ${d.row}`);

  // Every rollup table at once, against its rebuild from the raw rows (rolled back afterwards), for every brand.
  for (const brandId of brands.keys()) {
    const { kept: keptRollups, rebuilt: rebuiltRollups } = await rollupsAndRebuild(brandId);
    for (const table of Object.keys(keptRollups)) {
      const keptRows = keptRollups[table]!.map(json);
      const rebuiltRows = new Set(rebuiltRollups[table]!.map(json));
      const extra = keptRows.filter((r) => !rebuiltRows.has(r));
      const missing = [...rebuiltRows].filter((r) => !keptRows.includes(r));
      if (extra.length || missing.length) {
        fail("every rollup equals its rebuild from the rows behind it", `${table} (brand ${brandId}): kept but not rebuilt ${json(extra.slice(0, 3))}; rebuilt but not kept ${json(missing.slice(0, 3))}`);
      }
    }
  }

  // Deliveries to the Slack channels: the receiver's posts matched to deliveries by channel and
  // body (deliveries with the same body on one channel, if any, share their posts: at most one
  // each, and one more for each "Send again").
  const deliveries = await db().alertDelivery.findMany({ where: { workspaceId: space.workspaceId }, include: { channel: true } });
  const slackHits = receiver.hits.filter((h) => h.path.startsWith(`/slack/r${run}-`));
  const matched = new Set<number>();
  const groups = new Map<string, typeof deliveries>();
  for (const d of deliveries) {
    count(`deliveries: ${d.status}`);
    const key = `${new URL((d.channel.config as { url: string }).url).pathname}\n${json((d.message as { slack?: unknown }).slack)}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  for (const group of groups.values()) {
    const d = group[0]!;
    const path = new URL((d.channel.config as { url: string }).url).pathname;
    const posts = slackHits.map((h, i) => [h, i] as const).filter(([h]) => h.path === path && isDeepStrictEqual(h.body, (d.message as { slack?: unknown }).slack));
    posts.forEach(([, i]) => matched.add(i));
    const accepted = posts.filter(([h]) => h.answer !== "refused");
    const allowed = group.reduce((n, g) => n + 1 + (resent.get(g.id) ?? 0), 0);
    if (accepted.length > allowed) {
      const which = group.map((g) => `${g.id} (${g.kind}, ${g.status}, ${g.attempts} attempts, sent again ${resent.get(g.id) ?? 0} times, last error ${json(g.lastError)})`).join(", ");
      fail("no delivery sent twice to an id-less channel", `delivery ${which} was posted ${accepted.length} times: ${json(posts.map(([h]) => `${iso(h.at)} ${h.answer}`))}`);
    }
  }
  for (const [i, h] of slackHits.entries()) if (!matched.has(i)) fail("no delivery sent twice to an id-less channel", `a post to ${h.path} at ${iso(h.at)} (${h.answer}) matches no delivery`);

  // Repairs: none during the run (the workers' passes record what they repair), none while a
  // setup call was in flight, none now.
  for (const line of repairDuringWizard) fail("the repair pass repairs nothing", line);
  const final = await runRepairPass();
  if (Object.keys(final).length) fail("the repair pass repairs nothing", `after quiescence: ${json(final)}`);
  const repairs = await db().event.findMany({ where: { workspaceId: space.workspaceId, kind: "lifecycle_repaired" } });
  if ((await repairsIn(space.workspaceId)).length) {
    for (const e of repairs) {
      const token = (e.data as { runToken?: string }).runToken;
      const a = token ? await db().attempt.findUnique({ where: { runToken: token } }) : null;
      fail("the repair pass repairs nothing", `during the run, ${e.createdAt.toISOString().slice(11, 23)}: ${json(e.data)}${a ? ` (attempt ${a.number} of capture ${a.captureId}, worker ${a.workerId}, started ${a.startedAt.toISOString()}, ended ${a.endedAt?.toISOString() ?? "-"})` : ""}`);
    }
  }

  const n = (s: string) => captures.filter((c) => c.status === s).length;
  log.push(`-> ${n("succeeded")} succeeded, ${n("failed")} failed, ${n("cancelled")} cancelled; charged ${after.charged} of ${budget}; ${calls.length} provider calls; ${deliveries.length} deliveries; ${json(outcomes)}`);
  return { run, seed, plan, failures, log, outcomes };
}

describe("chaos", () => {
  it(`keeps every invariant over ${RUNS} random schedules of faults and feature operations`, { timeout: 300_000 * Math.max(1, RUNS) }, async () => {
    const failed: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const seed = (BASE_SEED + i) | 0;
      const [plan] = fc.sample(schedule, { seed, numRuns: 1 });
      const report = await chaosRun(i + 1, seed, plan!);
      console.log(report.log.join("\n"));
      if (REPORT) fs.appendFileSync(REPORT, `${json({ ...report, invariants: INVARIANTS })}\n`);
      const broken = Object.entries(report.failures);
      if (broken.length) {
        failed.push(
          `run ${report.run} (BEACON_CHAOS_SEED=${seed} BEACON_CHAOS_RUNS=1):\n${report.log.join("\n")}\n` +
            broken.map(([invariant, messages]) => `  ✗ ${invariant} (${messages!.length}):\n${messages!.slice(0, 5).map((m) => `      ${m}`).join("\n")}${messages!.length > 5 ? `\n      … ${messages!.length - 5} more` : ""}`).join("\n"),
        );
      }
    }
    expect(failed, failed.join("\n\n")).toEqual([]);
  });
});
