// /api/metrics reads counters the database keeps with triggers (migration 20261130134000,
// lib/metrics/counters.ts) instead of counting captures, attempts and events per scrape. Here:
// after a pipeline of every kind of transition, run one at a time and then many at once, each
// exported value equals a recount of the rows behind it (the query the metrics used to run); a
// scrape reads none of captures, attempts or events; deleting old attempts takes nothing back.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { metricValue, parseMetrics, type MetricSample } from "../support/metrics-text";
import { claim, claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { expireAttempt } from "@/lib/lifecycle/lease";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { failCapture, type Failure } from "@/lib/lifecycle/results";
import { postponeCapture } from "@/lib/lifecycle/waiting";
import { WAITING_STATUSES } from "@/lib/captures/states";
import { cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { collectMetrics } from "@/lib/metrics/collect";
import { cancelCheckNow } from "../support/check-fixtures";

let space: Space;
let workerId: string;

beforeAll(async () => {
  space = await newSpace({ prompts: 6 });
  workerId = await liveWorker();
});

const failure = (next: Failure["next"], attempt: Partial<Failure["attempt"]> = {}): Failure => ({
  next,
  delayMs: next === "retry_wait" ? 60_000 : undefined,
  lastError: "Simulated failure",
  attempt: { outcome: "failed", reason: "server_error", errorClass: next === "failed" ? "permanent" : "transient", httpStatus: 503, costMicros: 0, costIsEstimate: false, latencyMs: 5, ...attempt },
});

type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);

/** What the metrics must say, counted from the rows themselves (what a scrape used to do). */
async function recount() {
  const [totals] = await db().$queryRaw<Row[]>`
    SELECT (SELECT count(*) FROM captures) AS created,
           (SELECT count(*) FROM captures WHERE status = 'succeeded') AS accepted,
           (SELECT count(*) FROM captures WHERE status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])) AS waiting,
           (SELECT count(*) FROM captures WHERE status = 'postponed' AND "waitingFor" = 'budget') AS waiting_for_budget,
           (SELECT count(*) FROM captures WHERE status = 'running') AS running,
           (SELECT count(*) FROM attempts WHERE reason = 'lease_expired') AS lease_expired,
           (SELECT count(*) FROM attempts WHERE "startedAt" > now() AT TIME ZONE 'UTC' - interval '1 hour') AS recent_attempts,
           (SELECT count(*) FROM attempts WHERE "startedAt" > now() AT TIME ZONE 'UTC' - interval '1 hour' AND number > 1) AS recent_retries,
           (SELECT count(*) FROM captures WHERE status = 'succeeded' AND "finishedAt" > now() AT TIME ZONE 'UTC' - interval '24 hours') AS day_accepted,
           (SELECT coalesce(sum("costMicros"), 0) FROM captures WHERE status = 'succeeded' AND "finishedAt" > now() AT TIME ZONE 'UTC' - interval '24 hours') AS day_cost`;
  const attempts = await db().$queryRaw<{ provider: string; outcome: string; n: bigint }[]>`
    SELECT pc.name AS provider, coalesce(a.outcome::text, 'running') AS outcome, count(*) AS n
    FROM attempts a JOIN captures c ON c.id = a."captureId" JOIN provider_configs pc ON pc.id = c."providerConfigId"
    GROUP BY 1, 2`;
  const repairs = await db().$queryRaw<{ kind: string; n: bigint }[]>`
    SELECT data->>'kind' AS kind, count(*) AS n FROM events WHERE kind = 'lifecycle_repaired' GROUP BY 1`;
  return { totals: totals!, attempts, repairs };
}

/** Every exported value the counters feed, against the recount. */
async function expectCountersMatchRecount(): Promise<MetricSample[]> {
  const metrics = parseMetrics((await collectMetrics()).body);
  const { totals, attempts, repairs } = await recount();
  const value = (name: string, labels: Record<string, string> = {}) => metricValue(metrics, name, labels);
  expect({
    created: value("beacon_jobs_created_total"),
    accepted: value("beacon_jobs_accepted_total"),
    waiting: value("beacon_captures_waiting"),
    waitingForBudget: value("beacon_captures_waiting_for_budget"),
    running: value("beacon_captures_running"),
    leaseExpired: value("beacon_lease_expired_total"),
  }).toEqual({
    created: n(totals.created),
    accepted: n(totals.accepted),
    waiting: n(totals.waiting),
    waitingForBudget: n(totals.waiting_for_budget),
    running: n(totals.running),
    leaseExpired: n(totals.lease_expired),
  });
  expect(value("beacon_job_retry_rate")).toBeCloseTo(n(totals.recent_attempts) ? n(totals.recent_retries) / n(totals.recent_attempts) : 0, 12);
  expect(value("beacon_cost_per_accepted_job_usd")).toBeCloseTo(n(totals.day_accepted) ? n(totals.day_cost) / n(totals.day_accepted) / 1e6 : 0, 12);

  const exported = metrics.filter((m) => m.name === "beacon_provider_attempts_total");
  const providers = new Set([...exported.map((m) => m.labels.provider!), ...attempts.map((a) => a.provider)]);
  for (const provider of providers) {
    for (const outcome of ["running", "succeeded", "failed", "unknown", "cancelled"]) {
      const expected = n(attempts.find((a) => a.provider === provider && a.outcome === outcome)?.n);
      expect(value("beacon_provider_attempts_total", { provider, outcome }), `${provider} ${outcome}`).toBe(expected);
    }
    expect(value("beacon_provider_unknown_outcomes_total", { provider })).toBe(n(attempts.find((a) => a.provider === provider && a.outcome === "unknown")?.n));
  }
  for (const { kind, n: count } of repairs) expect(value("beacon_lifecycle_repairs_total", { kind }), kind).toBe(n(count));
  return metrics;
}

describe("metric counters", () => {
  it("equal a recount after captures go through every transition", async () => {
    const a = await startSpaceCheck(space, { prompts: 6, providers: ["ChatGPT", "Perplexity"] }); // 12 captures
    const b = await startSpaceCheck(space, { prompts: 3, providers: ["Gemini"] });
    const [ok1, ok2, retried, failed, aborted, budget, breaker, expired, running] = a.captureIds as [string, ...string[]];

    // queued -> running -> succeeded (with costs, for the 24-hour cost per accepted capture)
    await succeed(ok1!, await claimed(ok1!, workerId), 1_500);
    await succeed(ok2!, await claimed(ok2!, workerId), 2_500);
    // running -> retry_wait -> running (attempt 2, a retry) -> succeeded
    await failCapture(retried!, await claimed(retried!, workerId), failure("retry_wait"));
    await succeed(retried!, await claimed(retried!, workerId), 3_000);
    // running -> failed, then an admin retry (failed -> queued)
    await failCapture(failed!, await claimed(failed!, workerId), failure("failed", { httpStatus: 400 }));
    // running, then a cancel (request), then the aborted call ends it: running -> cancelled
    const abortedToken = await claimed(aborted!, workerId);
    await cancelCapture(space.owner, aborted!);
    await failCapture(aborted!, abortedToken, failure("cancelled", { outcome: "cancelled", reason: "aborted", errorClass: null, httpStatus: null }));
    // queued -> postponed (waiting for budget, and for an open breaker)
    expect(await postponeCapture(budget!, { waitingFor: "budget", delayMs: 30_000 })).toBe(true);
    expect(await postponeCapture(breaker!, { waitingFor: "breaker", delayMs: 30_000 })).toBe(true);
    // running, then its worker's lease runs out: running -> queued, attempt unknown / lease_expired
    expect(await expireAttempt(await claimed(expired!, workerId), "lease_expired")).toBe("queued");
    // one left running
    await claimed(running!, workerId);
    await expectCountersMatchRecount();

    // An impossible state the repair pass finds: a waiting capture with a cancel request.
    await db().$executeRaw`UPDATE captures SET "cancelRequestedAt" = now() WHERE id = ${b.captureIds[0]}::uuid`;
    expect((await runRepairPass()).cancel_requested_not_final).toBe(1);
    // Cancel a whole check (its waiting captures at once), then retry everything that can be.
    await cancelCheckNow(space.owner, b.checkId);
    await retryCaptures(space.owner, { captureId: failed! });
    await retryCaptures(space.owner, { checkId: b.checkId });
    const metrics = await expectCountersMatchRecount();

    expect(metricValue(metrics, "beacon_jobs_created_total")).toBe(15);
    expect(metricValue(metrics, "beacon_jobs_accepted_total")).toBe(3);
    expect(metricValue(metrics, "beacon_captures_waiting_for_budget")).toBe(1);
    expect(metricValue(metrics, "beacon_captures_running")).toBe(1);
    expect(metricValue(metrics, "beacon_lease_expired_total")).toBe(1);
    expect(metricValue(metrics, "beacon_lifecycle_repairs_total", { kind: "cancel_requested_not_final" })).toBe(1);
    expect(metricValue(metrics, "beacon_provider_attempts_total", { provider: "ChatGPT", outcome: "unknown" })
      + metricValue(metrics, "beacon_provider_attempts_total", { provider: "Perplexity", outcome: "unknown" })).toBe(1);
    expect(metricValue(metrics, "beacon_job_retry_rate")).toBeGreaterThan(0);
    expect(metricValue(metrics, "beacon_cost_per_accepted_job_usd")).toBeCloseTo(7_000 / 3 / 1e6, 12);
  });

  it("equal a recount after many workers' transitions at once (shards, no deadlock)", async () => {
    const { captureIds } = await startSpaceCheck(space, { prompts: 6, providers: ["ChatGPT", "Perplexity", "Gemini", "Claude"], samples: 2 }); // 48
    await Promise.all(
      captureIds.map(async (id, i) => {
        const { runToken, result } = await claim(id, workerId, randomUUID());
        if (result.kind !== "claimed") return;
        if (i % 3 === 0) await failCapture(id, runToken, failure("retry_wait"));
        else await succeed(id, runToken, 100 + i);
      }),
    );
    await expectCountersMatchRecount();
  });

  it("a scrape reads no captures, attempts or events", async () => {
    // Another session holds every lock on them: a scrape that read them would wait for it.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE captures, attempts, events IN ACCESS EXCLUSIVE MODE");
      const scraped = collectMetrics().then((m) => parseMetrics(m.body));
      const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the scrape waited for captures, attempts or events")), 15_000).unref());
      const metrics = await Promise.race([scraped, deadline]);
      expect(metricValue(metrics, "beacon_jobs_created_total")).toBeGreaterThan(0);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
  });

  it("deleting old attempts (retention) takes no counter back", async () => {
    const before = parseMetrics((await collectMetrics()).body);
    const ended = await db().attempt.count({ where: { outcome: { not: null } } });
    expect(ended).toBeGreaterThan(0);
    const { attemptsDeleted } = await runRetention({ attemptRetentionDays: 1, now: new Date(Date.now() + 2 * 86_400_000) });
    expect(attemptsDeleted).toBe(ended);
    const after = parseMetrics((await collectMetrics()).body);
    const total = (metrics: MetricSample[]) => metrics.filter((m) => m.name === "beacon_provider_attempts_total").reduce((sum, m) => sum + m.value, 0);
    expect(total(after)).toBe(total(before));
    expect(metricValue(after, "beacon_lease_expired_total")).toBe(metricValue(before, "beacon_lease_expired_total"));
    expect(metricValue(after, "beacon_jobs_created_total")).toBe(metricValue(before, "beacon_jobs_created_total"));
  });
});
