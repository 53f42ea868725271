// The circuit breaker (lib/breaker/breaker.ts) against a real PostgreSQL, no workers: the rules of
// DESIGN.md "Circuit breaker" one by one. Count window of the last 20 calls judged after 10, opens
// at >= 50 % failures, permanent errors do not count, refuses while open, then exactly ONE probe
// across all callers, success closes and failure reopens, a vanished probe is given away after
// the provider's timeout + 10 s, slow calls are counted (and may count as failures), admins force
// it open or closed, and /api/metrics shows it.
//
// Every test gets a provider configuration of its own, so every test starts with a fresh breaker.
// Time never passes by sleeping: the open period and the probe's start are moved into the past
// with SQL, on the database clock the breaker itself uses.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { metricValue, parseMetrics } from "../support/metrics-text";
import { gateAt } from "../support/pause";
import { acquirePermission, forceBreaker, recordCall, releaseProbe, type BreakerConfig, type CallOutcome, type Permission } from "@/lib/breaker/breaker";
import { listBreakers } from "@/lib/breaker/queries";
import { db } from "@/lib/db/prisma";
import { collectMetrics } from "@/lib/metrics/collect";
import { workersOverview } from "@/lib/admin/jobs-page";
import { liveWorker } from "../support/lifecycle-fixtures";

let workspaceId: string;

beforeAll(async () => {
  const workspace = await db().workspace.create({ data: { slug: `breaker-${randomUUID().slice(0, 8)}`, name: "Breaker tests" } });
  workspaceId = workspace.id;
});

type Provider = BreakerConfig & { id: string; name: string };

/**
 * A connection of its own (so a breaker of its own), defaults unless overridden, and the
 * workspace's provider on it; the breaker is the connection's for the provider's model.
 */
async function newProvider(overrides: Partial<Omit<BreakerConfig, "connectionId" | "model">> = {}): Promise<Provider> {
  const name = `Breaker ${randomUUID().slice(0, 8)}`;
  const connection = await db().providerConnection.create({ data: { name, adapter: "simulator", models: ["simulated"], ...overrides, grants: { create: { workspaceId } } } });
  const provider = await db().providerConfig.create({ data: { workspaceId, name, connectionId: connection.id, model: "simulated" } });
  return { ...connection, id: provider.id, name, connectionId: connection.id, model: provider.model };
}

const stateOf = (p: Provider) => db().breakerState.findUniqueOrThrow({ where: { connectionId_model: { connectionId: p.connectionId, model: p.model } } });

function transitionsOf(p: Provider) {
  return db().event.findMany({
    where: { kind: { in: ["breaker_opened", "breaker_closed"] }, data: { path: ["connectionId"], equals: p.connectionId } },
    orderBy: { createdAt: "asc" },
  });
}

const kindsOf = async (p: Provider) => (await transitionsOf(p)).map((e) => e.kind);

const OUTCOME = { s: "success", f: "failure", i: "ignored" } as const satisfies Record<string, CallOutcome>;

/** Records calls one after the other: "ssff i" = two successes, two failures, one ignored. */
async function record(p: Provider, outcomes: string, latencyMs = 100): Promise<void> {
  for (const c of outcomes.replace(/\s/g, "")) await recordCall(p, OUTCOME[c as keyof typeof OUTCOME], latencyMs, null);
}

async function dbNow(): Promise<Date> {
  const [row] = await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

/** The open period is over: openUntil one second ago on the database clock. */
async function endOpenPeriod(p: Provider): Promise<void> {
  await db().$executeRaw`UPDATE breaker_states SET "openUntil" = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE "connectionId" = ${p.connectionId}::uuid AND model = ${p.model}`;
}

/** The probe was handed out `ms` ago (database clock): its start and its deadline move back alike. */
async function probeStartedAgo(p: Provider, ms: number): Promise<void> {
  await db().$executeRaw`
    UPDATE breaker_states SET "probeStartedAt" = (now() AT TIME ZONE 'UTC') - make_interval(secs => ${ms / 1000}),
      "probeUntil" = "probeUntil" + ((now() AT TIME ZONE 'UTC') - make_interval(secs => ${ms / 1000}) - "probeStartedAt")
    WHERE "connectionId" = ${p.connectionId}::uuid AND model = ${p.model}`;
}

function expectRefused(permission: Permission): asserts permission is Extract<Permission, { allowed: false }> {
  expect(permission.allowed, `expected a refusal, got ${JSON.stringify(permission)}`).toBe(false);
}

function expectProbe(permission: Permission): string {
  expect(permission.allowed, `expected the probe, got ${JSON.stringify(permission)}`).toBe(true);
  const token = (permission as { probeToken: string | null }).probeToken;
  expect(token, "a probe carries a token").toEqual(expect.any(String));
  return token!;
}

const FREE_PASS: Permission = { allowed: true, probeToken: null };

/** Opens a default breaker with ten failures and returns its state. */
async function openIt(p: Provider) {
  await record(p, "ffffffffff");
  const state = await stateOf(p);
  expect(state.status).toBe("open");
  return state;
}

describe("opening", () => {
  it("is not judged before minCalls: 9 failures of 9 stay closed, the 10th opens it", async () => {
    const p = await newProvider();
    await record(p, "fffffffff");
    expect(await stateOf(p)).toMatchObject({ status: "closed", recentFailures: Array(9).fill(true), failureCount: 9n });
    expect(await acquirePermission(p)).toEqual(FREE_PASS);
    expect(await kindsOf(p)).toEqual([]);

    const before = await dbNow();
    await record(p, "f");
    const state = await stateOf(p);
    const after = await dbNow();
    expect(state).toMatchObject({ status: "open", failureCount: 10n, probeToken: null });
    // Open for breakerOpenSeconds (45) from the moment it opened.
    expect(state.openedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5);
    expect(state.openedAt!.getTime()).toBeLessThanOrEqual(after.getTime() + 5);
    expect(state.openUntil!.getTime() - state.openedAt!.getTime()).toBe(45_000);

    const events = await transitionsOf(p);
    expect(events.map((e) => e.kind)).toEqual(["breaker_opened"]);
    // Instance-wide: the breaker is the connection's, whichever workspaces use it.
    expect(events[0]).toMatchObject({ workspaceId: null, data: { connectionId: p.connectionId, connection: p.name, model: p.model } });
  });

  it("opens at exactly 50 % of at least minCalls calls, not below", async () => {
    // 4 failures in 10 calls (40 %) and then 4 of 11 stay closed; 5 of 10 opens.
    const below = await newProvider();
    await record(below, "ssssss ffff s");
    expect(await stateOf(below)).toMatchObject({ status: "closed" });

    const half = await newProvider();
    await record(half, "sssss ffff");
    expect((await stateOf(half)).status).toBe("closed");
    await record(half, "f");
    expect((await stateOf(half)).status).toBe("open");
  });

  it("opens after at most 20 calls when half of them fail, whatever their order", async () => {
    // Ten successes first: at 19 calls 9 failures are 47 %, at 20 calls 10 are 50 %.
    const p = await newProvider();
    await record(p, "ssssssssss fffffffff");
    expect((await stateOf(p)).status).toBe("closed");
    await record(p, "f");
    expect((await stateOf(p)).status).toBe("open");
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
  });

  it("judges only the last 20 calls: old successes do not dilute new failures", async () => {
    // 20 successes then failures: counted since the start, 10 failures of 30 would be 33 %; in the
    // window of the last 20 they are 50 %.
    const p = await newProvider();
    await record(p, "ssssssssss ssssssssss fffffffff");
    expect(await stateOf(p)).toMatchObject({ status: "closed", recentFailures: [...Array(11).fill(false), ...Array(9).fill(true)] });
    await record(p, "f");
    expect((await stateOf(p)).status).toBe("open");
  });

  it("opens once when many callers cross the threshold together", async () => {
    const p = await newProvider();
    await record(p, "ffffffff");
    await Promise.all(Array.from({ length: 12 }, () => recordCall(p, "failure", 100, null)));
    expect(await stateOf(p)).toMatchObject({ status: "open", failureCount: 20n });
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
  });

  it("never counts permanent errors (ignored outcomes)", async () => {
    const p = await newProvider();
    await record(p, "fffffffff");
    await record(p, "i".repeat(30));
    expect(await stateOf(p)).toMatchObject({ status: "closed", recentFailures: Array(9).fill(true), failureCount: 9n, successCount: 0n });
    // Interleaved with real outcomes, still not counted: 9 failures + 9 successes is 50 % of 18.
    await record(p, "isisisisisisisisis");
    expect(await stateOf(p)).toMatchObject({ status: "open", failureCount: 9n, successCount: 9n });
  });
});

describe("while open", () => {
  it("refuses every call until openUntil (measured on the database clock), counting the short circuits, and pauses the window", async () => {
    const p = await newProvider();
    const opened = await openIt(p);
    for (let i = 1; i <= 5; i++) {
      const permission = await acquirePermission(p);
      expectRefused(permission);
      const [{ untilMs }] = (await db().$queryRaw<{ untilMs: number }[]>`
        SELECT (extract(epoch FROM ${opened.openUntil!}::timestamp - now() AT TIME ZONE 'UTC') * 1000)::float8 AS "untilMs"`) as [{ untilMs: number }];
      expect(Math.abs(permission.retryInMs - untilMs)).toBeLessThan(500);
      expect((await stateOf(p)).shortCircuitCount).toBe(BigInt(i));
    }
    // A call that started before it opened still ends: counted, but it neither closes nor reopens.
    await record(p, "s f");
    const state = await stateOf(p);
    expect(state).toMatchObject({ status: "open", successCount: 1n, failureCount: 11n, openUntil: opened.openUntil, openedAt: opened.openedAt, recentFailures: [] });
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
  });
});

describe("half-open", () => {
  it("after openUntil, 20 concurrent callers get exactly one probe; the others are refused", async () => {
    const p = await newProvider();
    await openIt(p);
    expectRefused(await acquirePermission(p));
    await endOpenPeriod(p);

    const permissions = await Promise.all(Array.from({ length: 20 }, () => acquirePermission(p)));
    const probes = permissions.filter((x) => x.allowed);
    expect(probes, JSON.stringify(permissions)).toHaveLength(1);
    const token = expectProbe(probes[0]!);
    for (const refused of permissions.filter((x) => !x.allowed)) {
      expectRefused(refused);
      // Waiting for the probe's outcome: back within the open period.
      expect(refused.retryInMs).toBeGreaterThan(0);
      expect(refused.retryInMs).toBeLessThanOrEqual(45_000);
    }
    expect(await stateOf(p)).toMatchObject({ status: "half_open", probeToken: token, shortCircuitCount: 20n });
    // And later callers too, while the probe runs.
    expectRefused(await acquirePermission(p));
  });

  it("a successful probe closes the breaker with a fresh window", async () => {
    const p = await newProvider();
    await openIt(p);
    await endOpenPeriod(p);
    const token = expectProbe(await acquirePermission(p));

    await recordCall(p, "success", 100, token);
    expect(await stateOf(p)).toMatchObject({ status: "closed", recentFailures: [], probeToken: null, probeStartedAt: null, openUntil: null, openedAt: null });
    expect(await kindsOf(p)).toEqual(["breaker_opened", "breaker_closed"]);
    const closed = (await transitionsOf(p))[1]!;
    expect(closed.data).toMatchObject({ connectionId: p.connectionId, connection: p.name, model: p.model });
    expect(await acquirePermission(p)).toEqual(FREE_PASS);

    // Fresh window: judged again only after minCalls (the ten failures before do not count).
    await record(p, "fffffffff");
    expect((await stateOf(p)).status).toBe("closed");
    await record(p, "f");
    expect((await stateOf(p)).status).toBe("open");
    expect(await kindsOf(p)).toEqual(["breaker_opened", "breaker_closed", "breaker_opened"]);
  });

  it("a failed probe reopens it for another open period", async () => {
    const p = await newProvider({ breakerOpenSeconds: 30 });
    const first = await openIt(p);
    await endOpenPeriod(p);
    const token = expectProbe(await acquirePermission(p));

    const before = await dbNow();
    await recordCall(p, "failure", 100, token);
    const state = await stateOf(p);
    expect(state).toMatchObject({ status: "open", probeToken: null, probeStartedAt: null });
    // A new open period of breakerOpenSeconds from the failed probe.
    expect(state.openUntil!.getTime()).toBeGreaterThanOrEqual(before.getTime() + 30_000 - 5);
    expect(state.openUntil!.getTime()).toBeGreaterThan(first.openUntil!.getTime());
    // Still the same outage: it has been open since the first opening.
    expect(state.openedAt).toEqual(first.openedAt);
    expect(await kindsOf(p)).toEqual(["breaker_opened", "breaker_opened"]);
    expectRefused(await acquirePermission(p));

    // A timeout on the probe is a failure too (run-capture records it so).
    await endOpenPeriod(p);
    const second = expectProbe(await acquirePermission(p));
    await recordCall(p, "failure", 120_000, second);
    expect((await stateOf(p)).status).toBe("open");
  });

  it("a probe that ends with a permanent error (ignored) is handed out again at once", async () => {
    const p = await newProvider();
    await openIt(p);
    await endOpenPeriod(p);
    const token = expectProbe(await acquirePermission(p));
    await recordCall(p, "ignored", 100, token);
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
    const next = expectProbe(await acquirePermission(p));
    expect(next).not.toBe(token);
  });

  it("a probe is waited for as long as its own timeout, though an operator lowered the timeout since it was handed out", async () => {
    const p = await newProvider({ breakerProbeTimeoutMs: 60_000 });
    await openIt(p);
    await endOpenPeriod(p);
    expectProbe(await acquirePermission(p));
    // The probe call runs with 60 s; the operator sets 5 s, and 20 s pass.
    await db().providerConnection.update({ where: { id: p.connectionId }, data: { breakerProbeTimeoutMs: 5_000 } });
    await probeStartedAgo(p, 20_000);
    expectRefused(await acquirePermission({ ...p, breakerProbeTimeoutMs: 5_000 }));
    // Past its own timeout and slack, it is given up for dead.
    await probeStartedAgo(p, 60_000 + 10_000 + 1_000);
    expectProbe(await acquirePermission({ ...p, breakerProbeTimeoutMs: 5_000 }));
  });

  it("a probe whose holder vanished is handed out again after the probe timeout + 10 s, and the late holder's outcome is ignored", async () => {
    const p = await newProvider({ breakerProbeTimeoutMs: 20_000 });
    await openIt(p);
    await endOpenPeriod(p);
    const lost = expectProbe(await acquirePermission(p));

    await probeStartedAgo(p, 20_000 + 10_000 - 2_000);
    expectRefused(await acquirePermission(p));

    await probeStartedAgo(p, 20_000 + 10_000 + 1_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => acquirePermission(p)));
    expect(results.filter((x) => x.allowed), JSON.stringify(results)).toHaveLength(1);
    const taken = expectProbe(results.find((x) => x.allowed)!);
    expect(taken).not.toBe(lost);

    // The vanished holder comes back with a success: it is not the probe any more.
    await recordCall(p, "success", 100, lost);
    expect(await stateOf(p)).toMatchObject({ status: "half_open", probeToken: taken });
    await recordCall(p, "success", 100, taken);
    expect((await stateOf(p)).status).toBe("closed");
    expect(await kindsOf(p)).toEqual(["breaker_opened", "breaker_closed"]);
  });

  it("releaseProbe gives the probe back, and only its holder can", async () => {
    const p = await newProvider();
    await openIt(p);
    await endOpenPeriod(p);
    const token = expectProbe(await acquirePermission(p));

    await releaseProbe(p, randomUUID());
    expect(await stateOf(p)).toMatchObject({ status: "half_open", probeToken: token });
    expectRefused(await acquirePermission(p));

    await releaseProbe(p, token);
    expect(await stateOf(p)).toMatchObject({ status: "open", probeToken: null });
    const again = expectProbe(await acquirePermission(p));
    expect(again).not.toBe(token);
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
  });
});

describe("slow calls", () => {
  it("are counted apart and do not open the breaker unless configured to", async () => {
    const p = await newProvider({ breakerSlowCallMs: 1_000 });
    await record(p, "ssssssssss ssssssssss", 1_500);
    await record(p, "sssss", 1_000); // at the threshold is not slow
    expect(await stateOf(p)).toMatchObject({ status: "closed", successCount: 25n, failureCount: 0n, slowCallCount: 20n });
    expect((await stateOf(p)).recentFailures.every((f) => !f)).toBe(true);
  });

  it("count as failures when breakerSlowCallIsFailure is set", async () => {
    const p = await newProvider({ breakerSlowCallMs: 1_000, breakerSlowCallIsFailure: true });
    await record(p, "sssss", 200);
    await record(p, "ssss", 5_000);
    expect(await stateOf(p)).toMatchObject({ status: "closed", slowCallCount: 4n });
    await record(p, "s", 5_000);
    expect(await stateOf(p)).toMatchObject({ status: "open", slowCallCount: 5n, successCount: 5n, failureCount: 5n });
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
  });
});

describe("forced by an admin", () => {
  it("forced open refuses even a healthy provider; back to automatic closes it", async () => {
    const p = await newProvider();
    expect(await forceBreaker(p, "open")).toBe(true);
    const refused = await acquirePermission(p);
    expectRefused(refused);
    expect(refused.retryInMs).toBeGreaterThan(0);
    // Even long after any open period would have ended: no probe while forced.
    await endOpenPeriod(p);
    expectRefused(await acquirePermission(p));
    expect(await stateOf(p)).toMatchObject({ forcedStatus: "open", shortCircuitCount: 2n });
    expect((await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)).toMatchObject({ status: "open", forced: "open" });

    expect(await forceBreaker(p, null)).toBe(true);
    expect(await stateOf(p)).toMatchObject({ forcedStatus: null, status: "closed", recentFailures: [] });
    expect(await acquirePermission(p)).toEqual(FREE_PASS);
    expect((await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)).toMatchObject({ status: "closed", forced: null });
  });

  it("back to automatic while a call's count crosses the threshold: the breaker starts over closed, not opened on the failures before", async () => {
    const p = await newProvider();
    await record(p, "sssss ffff");
    // The worst moment: the tenth call's count crossed the threshold, the breaker not opened yet.
    const gate = gateAt("breaker:over-threshold");
    const counting = recordCall(p, "failure", 100, null);
    await gate.reached;
    expect(await forceBreaker(p, null)).toBe(true);
    gate.open();
    await counting;
    expect(await stateOf(p)).toMatchObject({ status: "closed", forcedStatus: null });
    expect(await acquirePermission(p)).toEqual(FREE_PASS);
    expect(await kindsOf(p)).toEqual([]);
  });

  it("forced closed lets calls through an open breaker and does not open on failures", async () => {
    const p = await newProvider();
    await openIt(p);
    expect(await forceBreaker(p, "closed")).toBe(true);
    expect(await acquirePermission(p)).toEqual(FREE_PASS);

    await record(p, "ffffffffff ffffffffff");
    for (let i = 0; i < 3; i++) expect(await acquirePermission(p)).toEqual(FREE_PASS);
    expect((await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)).toMatchObject({ status: "closed", forced: "closed" });
    // Held closed, it does not open: no transition is recorded for the admin page to show.
    expect(await kindsOf(p)).toEqual(["breaker_opened"]);
    expect(metricValue(parseMetrics((await collectMetrics()).body), "beacon_breaker_state", { provider: p.name, model: p.model })).toBe(0);

    // Back to automatic: closed with an empty window, judged from scratch.
    await forceBreaker(p, null);
    await record(p, "fffffffff");
    expect((await stateOf(p)).status).toBe("closed");
    await record(p, "f");
    expect((await stateOf(p)).status).toBe("open");
  });

  it("only on a connection that exists", async () => {
    const p = await newProvider();
    expect(await forceBreaker({ connectionId: randomUUID(), model: p.model }, "open")).toBe(false);
    expect(await acquirePermission(p)).toEqual(FREE_PASS);
  });
});

describe("metrics", () => {
  const scrape = async () => parseMetrics((await collectMetrics()).body);

  it("shows each breaker's state, calls by outcome, how long it has been open and whether too long", async () => {
    const open = await newProvider();
    await record(open, "sssss fffff"); // opens on the 10th call
    for (let i = 0; i < 3; i++) expectRefused(await acquirePermission(open));
    await record(open, "f"); // a call in flight when it opened
    const closed = await newProvider();
    await record(closed, "ssf i");
    const halfOpen = await newProvider();
    await openIt(halfOpen);
    await endOpenPeriod(halfOpen);
    expectProbe(await acquirePermission(halfOpen));

    let m = await scrape();
    const one = (name: string, provider: Provider, outcome?: string) => metricValue(m, name, { provider: provider.name, model: provider.model, ...(outcome ? { outcome } : {}) });
    expect(one("beacon_breaker_state", open)).toBe(1);
    expect(one("beacon_breaker_state", closed)).toBe(0);
    expect(one("beacon_breaker_state", halfOpen)).toBe(2);
    expect(one("beacon_breaker_calls_total", open, "success")).toBe(5);
    expect(one("beacon_breaker_calls_total", open, "failure")).toBe(6);
    expect(one("beacon_breaker_calls_total", open, "short_circuit")).toBe(3);
    expect(one("beacon_breaker_calls_total", closed, "success")).toBe(2);
    expect(one("beacon_breaker_calls_total", closed, "failure")).toBe(1);
    expect(one("beacon_breaker_calls_total", closed, "short_circuit")).toBe(0);
    expect(one("beacon_breaker_open_duration_seconds", open)).toBeGreaterThanOrEqual(0);
    expect(one("beacon_breaker_open_duration_seconds", open)).toBeLessThan(60);
    expect(one("beacon_breaker_open_duration_seconds", closed)).toBe(0);
    expect(one("beacon_breaker_open_too_long", open)).toBe(0);

    // Open (reopened by failed probes) since 6 minutes ago: more than the 5 minutes allowed.
    await db().$executeRaw`UPDATE breaker_states SET "openedAt" = (now() AT TIME ZONE 'UTC') - interval '6 minutes' WHERE "connectionId" = ${open.connectionId}::uuid`;
    m = await scrape();
    expect(one("beacon_breaker_open_duration_seconds", open)).toBeGreaterThanOrEqual(360);
    expect(one("beacon_breaker_open_duration_seconds", open)).toBeLessThan(420);
    expect(one("beacon_breaker_open_too_long", open)).toBe(1);
    expect(one("beacon_breaker_open_too_long", halfOpen)).toBe(0);
    expect((await listBreakers({ workspaceId })).find((b) => b.connectionId === open.connectionId)).toMatchObject({ status: "open", openTooLong: true });

    // Forced open counts as open.
    await forceBreaker(closed, "open");
    m = await scrape();
    expect(one("beacon_breaker_state", closed)).toBe(1);
  });
});

describe("read by the database's clock, whatever the web server's says", () => {
  it("a breaker opened a moment ago is not open too long, and a worker holding its lease is alive, with the web server's clock two hours ahead", async () => {
    const p = await newProvider();
    await openIt(p);
    const workerId = await liveWorker(600);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      const listed = (await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)!;
      expect(listed.openSeconds).toBeLessThan(60);
      expect(listed.openTooLong).toBe(false);
      const metrics = parseMetrics((await collectMetrics()).body);
      expect(metricValue(metrics, "beacon_breaker_open_too_long", { provider: p.name, model: p.model })).toBe(0);
      expect((await workersOverview()).find((w) => w.workerId === workerId)).toMatchObject({ alive: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a breaker an operator forces open is open since the database's now, and forcing an open one keeps when it opened", async () => {
    const p = await newProvider();
    const key = { connectionId: p.connectionId, model: p.model };
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      await forceBreaker(key, "open");
      const listed = (await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)!;
      expect(listed.openSeconds).toBeGreaterThanOrEqual(0);
      expect(listed.openSeconds).toBeLessThan(60);
      expect(listed.openTooLong).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    // Open for a while already: forcing it open again does not restart its open time (nor the alert's key).
    await db().$executeRaw`UPDATE breaker_states SET "openedAt" = (now() AT TIME ZONE 'UTC') - interval '6 minutes' WHERE "connectionId" = ${p.connectionId}::uuid`;
    await forceBreaker(key, "open");
    expect((await listBreakers({ workspaceId })).find((b) => b.connectionId === p.connectionId)!.openSeconds).toBeGreaterThanOrEqual(360);
  });
});
