// The Costs page reads ended attempts from rollup_attempts (kept by the triggers
// attempts_cost_rollup_*) and running ones from their rows. On random histories of attempts
// started on random days and ended through beacon_close_attempt (some left running), for random
// filters, costsDashboard must give exactly what the raw query over every attempt gave
// (tests/support/raw-analytics.ts), also after a retention pass deleted ended attempts (the raw
// query then over the attempts before the deletion); the rollup must equal its rebuild from the
// attempts; and the migration must build it from the attempts there are.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { acrossMigration, type Sql } from "../support/partial-migrations";
import { attemptRollupAndRebuild, KEPT_SQL, REBUILT_SQL } from "../support/attempt-rollup";
import * as raw from "../support/raw-analytics";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { claimed, expectBudgetConsistent, liveWorker, newSpace, startSpaceCheck, succeed, taggedSpace, type Space } from "../support/lifecycle-fixtures";
import { costsDashboard } from "@/lib/analytics/costs";
import { resolveFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { recordRollups } from "@/lib/analytics/rollups";
import { addDays, analyticsFilterInput, isoDay } from "@/lib/analytics/schemas";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { closeAttempt } from "@/lib/lifecycle/transition";

const START = new Date("2025-01-06T00:00:00Z");
const SPAN_DAYS = 30;
const DAY = 86_400_000;
const OUTCOMES = [null, "succeeded", "failed", "unknown", "cancelled"] as const;

type AttemptSpec = { minute: number; outcome: (typeof OUTCOMES)[number]; cost: number; estimate: boolean };
/** A capture whose last attempt is still running is running (with that run), as a claim leaves it. */
type CaptureSpec = { provider: number; prompt: number; succeeded: boolean; attempts: AttemptSpec[] };

const attemptSpec: fc.Arbitrary<AttemptSpec> = fc.record({
  // Any minute of the span, the last one of a day included.
  minute: fc.oneof(fc.integer({ min: 0, max: SPAN_DAYS * 1440 - 1 }), fc.integer({ min: 1, max: SPAN_DAYS }).map((d) => d * 1440 - 1)),
  // Running ones (null) less often, as they are.
  outcome: fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.constantFrom(...OUTCOMES.slice(1)), weight: 6 }),
  cost: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000 })),
  estimate: fc.boolean(),
});
const captureSpec: fc.Arbitrary<CaptureSpec> = fc.record({
  provider: fc.integer({ min: 0, max: 2 }),
  prompt: fc.integer({ min: 0, max: 2 }),
  succeeded: fc.boolean(),
  attempts: fc.array(attemptSpec, { minLength: 1, maxLength: 3 }),
}).map((c) => ({
  ...c,
  // Only the last attempt may still run: an earlier one ended before the next was claimed.
  attempts: c.attempts.map((a, i) => (a.outcome === null && i < c.attempts.length - 1 ? { ...a, outcome: "failed" as const } : a)),
}));
const filterSpec = fc.record({
  // Short ranges anywhere (daily buckets), and long ones ending in the history (weekly buckets).
  range: fc.oneof(
    fc.record({ fromDay: fc.integer({ min: -3, max: SPAN_DAYS }), days: fc.integer({ min: 1, max: SPAN_DAYS }) }),
    fc.record({ endDay: fc.integer({ min: 1, max: SPAN_DAYS + 3 }), days: fc.integer({ min: 121, max: 160 }) }).map(({ endDay, days }) => ({ fromDay: endDay - days, days })),
  ),
  providers: fc.subarray([0, 1, 2]),
  tags: fc.subarray(["buying", "pricing", "smb", "unused"]),
  markets: fc.subarray(["DE:de", "US:en", ":"]),
}).map(({ range, ...rest }) => ({ ...range, ...rest }));
type FilterSpec = { fromDay: number; days: number; providers: number[]; tags: string[]; markets: string[] };

type World = { space: Space; providerIds: string[]; connectionIds: string[]; promptIds: string[]; workerId: string };
let world: World;

beforeAll(async () => {
  const { space, providerIds, connectionIds } = await taggedSpace();
  // The running attempts' worker, alive throughout (no sweep ends its attempts).
  world = { space, providerIds, connectionIds, promptIds: space.promptIds, workerId: await liveWorker() };
});

/**
 * A brand of its own with one check of these captures; their attempts inserted open (as a claim
 * leaves them, on their random start) and then ended through beacon_close_attempt, a few in one
 * transaction as the repair pass does, the others one per transaction. Running ones stay open.
 */
async function writeHistory(specs: CaptureSpec[]) {
  const workspaceId = world.space.workspaceId;
  const brand = await db().brand.create({ data: { workspaceId, name: `Acme ${randomUUID().slice(0, 8)}`, aliases: ["Acme"], domains: ["acme.com"] } });
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: specs.length, status: "completed" } });
  const ids = specs.map(() => randomUUID());
  const attempts = specs.flatMap((s, i) => s.attempts.map((a, n) => ({ ...a, captureId: ids[i]!, number: n + 1, runToken: randomUUID() })));
  const runningRun = (captureId: string) => attempts.find((a) => a.captureId === captureId && a.outcome === null)?.runToken;
  await db().capture.createMany({
    data: specs.map((s, i) => ({
      id: ids[i]!,
      workspaceId,
      checkId: check.id,
      brandId: brand.id,
      promptId: world.promptIds[s.prompt]!,
      providerConfigId: world.providerIds[s.provider]!,
      connectionId: world.connectionIds[s.provider]!,
      sample: i + 1,
      status: runningRun(ids[i]!) ? ("running" as const) : s.succeeded ? ("succeeded" as const) : ("failed" as const),
      runToken: runningRun(ids[i]!) ?? null,
      maxAttempts: 3,
      model: "m",
      searchMode: "auto" as const,
      answerText: s.succeeded ? "Acme." : null,
      costMicros: s.succeeded ? 1_000 : 0,
      finishedAt: runningRun(ids[i]!) ? null : new Date(START.getTime() + (s.attempts[0]!.minute + 1) * 60_000),
    })),
  });
  // The accepted captures (rollup_answers), which the page divides by.
  await db().$transaction((tx) => recordRollups(tx, ids));
  await db().attempt.createMany({
    data: attempts.map((a) => ({
      workspaceId,
      captureId: a.captureId,
      number: a.number,
      runToken: a.runToken,
      workerId: world.workerId,
      // Microseconds past the minute: the day's last instant too.
      startedAt: new Date(START.getTime() + a.minute * 60_000 + (a.minute % 7 === 0 ? 59_999 : 0)),
    })),
  });
  const ending = attempts.filter((a) => a.outcome !== null);
  const close = (tx: Parameters<typeof closeAttempt>[0], a: (typeof ending)[number]) =>
    closeAttempt(tx, a.runToken, { outcome: a.outcome!, reason: null, costMicros: a.cost, costIsEstimate: a.estimate, latencyMs: 10 });
  const together = ending.slice(0, 4);
  await db().$transaction(async (tx) => {
    for (const a of together) expect(await close(tx, a)).not.toBeNull();
  });
  for (const a of ending.slice(4)) await db().$transaction(async (tx) => expect(await close(tx, a)).not.toBeNull());
  return brand.id;
}

async function resolved(brandId: string, f: FilterSpec): Promise<ResolvedFilter> {
  const from = addDays(START, f.fromDay);
  const r = await resolveFilter(
    world.space.workspaceId,
    analyticsFilterInput.parse({ brandId, from: isoDay(from), to: isoDay(addDays(from, f.days - 1)), providers: f.providers.map((p) => world.providerIds[p]!), tags: f.tags, markets: f.markets }),
  );
  return r!;
}

describe("the Costs page from rollup_attempts", () => {
  it("gives exactly what every attempt's row gave, for random histories and filters, and after retention", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(captureSpec, { minLength: 1, maxLength: 25 }), fc.array(filterSpec, { minLength: 2, maxLength: 4 }), fc.integer({ min: 0, max: SPAN_DAYS + 1 }), async (specs, filters, cutDay) => {
        const brandId = await writeHistory(specs);
        const before: unknown[] = [];
        for (const spec of filters) {
          const f = await resolved(brandId, spec);
          const expected = await raw.costsDashboard(f);
          expect(await costsDashboard(f)).toEqual(expected);
          before.push(expected);
        }
        const ofBrand = async () => {
          const { kept, rebuilt } = await attemptRollupAndRebuild(world.space.workspaceId);
          return { kept: kept.filter((r) => r.brandId === brandId), rebuilt: rebuilt.filter((r) => r.brandId === brandId) };
        };
        const { kept, rebuilt } = await ofBrand();
        expect(kept).toEqual(rebuilt);

        // Retention deletes the ended attempts started before the cut day: their spend stays.
        const attemptRetentionDays = 400;
        await runRetention({ attemptRetentionDays, now: new Date(START.getTime() + (cutDay + attemptRetentionDays) * DAY) });
        for (const [i, spec] of filters.entries()) expect(await costsDashboard(await resolved(brandId, spec))).toEqual(before[i]);
        expect((await ofBrand()).kept).toEqual(kept);
      }),
      { numRuns: 25 },
    );
  });
});

// The repair pass closes many attempts in one transaction (open_attempt_of_moved_capture, in the
// rollup's key order); a worker closes its own in its success or failure. Both add to the same
// rollup_attempts rows. Each side is held with its rollup rows locked while the other closes an
// attempt of the same rows: neither may deadlock, lose an addition or count one twice.
describe("the repair pass and a worker closing attempts of the same cost rollup rows", () => {
  /** Two prompts x two samples of one provider: two captures per rollup row (day, provider, prompt); one of each moved on without closing its attempt. */
  async function movedAndRunning() {
    const space = await newSpace({ prompts: 2, budgetMicros: 50_000_000 });
    const { captureIds } = await startSpaceCheck(space, { prompts: 2, samples: 2 });
    const workerId = await liveWorker();
    const runs: { id: string; runToken: string }[] = [];
    for (const id of captureIds) runs.push({ id, runToken: await claimed(id, workerId) });
    const prompts = await db().capture.findMany({ where: { id: { in: captureIds } }, select: { id: true, promptId: true } });
    const byPrompt = [...new Set(prompts.map((p) => p.promptId))].sort().map((promptId) => runs.filter((r) => prompts.find((p) => p.id === r.id)!.promptId === promptId));
    const moved = byPrompt.map((pair) => pair[0]!);
    const running = byPrompt.map((pair) => pair[1]!);
    await db().$executeRaw`UPDATE captures SET status = 'failed', "finishedAt" = now(), "runToken" = NULL WHERE id = ANY(${moved.map((m) => m.id)}::uuid[])`;
    return { space, moved, running };
  }

  async function expectExact(workspaceId: string, attempts: number) {
    const { kept, rebuilt } = await attemptRollupAndRebuild(workspaceId);
    expect(kept).toEqual(rebuilt);
    expect(kept.reduce((sum, row) => sum + Number(row.attempts), 0)).toBe(attempts);
    await expectBudgetConsistent(workspaceId);
  }

  it("a worker's close waits for the repair that holds its rollup row, then adds to it", async () => {
    const { space, running } = await movedAndRunning();
    const gate = gateAt("repair:attempts-closed-before-commit");
    const repairing = runRepairPass();
    await gate.reached; // both moved captures' attempts closed: both rollup rows locked
    const succeeding = succeed(running[0]!.id, running[0]!.runToken);
    await waitForLockWaiter(1, undefined, "beacon_succeed"); // its close waits for the row
    gate.open();
    expect(await repairing).toMatchObject({ open_attempt_of_moved_capture: 2 });
    await succeeding;
    await expectExact(space.workspaceId, 3);
  });

  it("the repair, holding one rollup row, waits for the worker that holds the next, then adds to it", async () => {
    const { space, running } = await movedAndRunning();
    // The worker's success of the second prompt's capture: written (its rollup row locked), not committed.
    const gate = gateAt("succeed:before-commit");
    const succeeding = succeed(running[1]!.id, running[1]!.runToken);
    await gate.reached;
    const repairing = runRepairPass();
    await waitForLockWaiter(1, undefined, "beacon_close_attempt"); // closed the first row's attempt, waits for the second row
    gate.open();
    await succeeding;
    expect(await repairing).toMatchObject({ open_attempt_of_moved_capture: 2 });
    await succeed(running[0]!.id, running[0]!.runToken);
    await expectExact(space.workspaceId, 4);
  });
});

describe("migration 20261212150000_attempt_cost_rollup", () => {
  it("builds the rollup from the ended attempts there are, and leaves the running ones to their rows", async () => {
    await acrossMigration(
      "20261212150000_attempt_cost_rollup",
      async (sql: Sql) => {
        const one = async (text: string, values: unknown[] = []) => (await sql(`${text} RETURNING id`, values)).rows[0].id as string;
        const workspace = await one(`INSERT INTO workspaces (slug, name) VALUES ('w', 'W')`);
        const connection = await one(`INSERT INTO provider_connections (name, adapter) VALUES ('C', 'simulator')`);
        const providers = [
          await one(`INSERT INTO provider_configs ("workspaceId", name, model, "connectionId") VALUES ($1, 'P', 'm', $2)`, [workspace, connection]),
          await one(`INSERT INTO provider_configs ("workspaceId", name, model, "connectionId") VALUES ($1, 'Q', 'm', $2)`, [workspace, connection]),
        ];
        const brand = await one(`INSERT INTO brands ("workspaceId", name) VALUES ($1, 'B')`, [workspace]);
        const prompts = [await one(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which CRM?')`, [workspace]), await one(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which ERP?')`, [workspace])];
        const versions = await Promise.all(prompts.map((p) => one(`INSERT INTO prompt_versions ("workspaceId", "promptId", number, text) VALUES ($1, $2, 1, 'Which?')`, [workspace, p])));
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures") VALUES ($1, $2, 4)`, [workspace, brand]);
        const attempts: [string | null, number, boolean, string][] = [
          ["succeeded", 1_000, false, "2025-01-06 00:00:00"],
          ["failed", 300, false, "2025-01-06 23:59:59.999999"],
          ["unknown", 700, true, "2025-01-07 00:00:00"],
          ["cancelled", 0, false, "2025-01-07 12:00:00"],
          [null, 0, false, "2025-01-07 13:00:00"],
          ["failed", 0, false, "2025-01-08 08:00:00"],
        ];
        for (let i = 0; i < 4; i++) {
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "promptVersionId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running', 3, 'm', 'auto')`,
            [workspace, check, brand, prompts[i % 2], versions[i % 2], providers[Math.floor(i / 2)], connection, i + 1],
          );
          for (const [n, [outcome, cost, estimate, startedAt]] of attempts.entries()) {
            if (n % 4 !== i) continue;
            await sql(
              `INSERT INTO attempts ("workspaceId", "captureId", number, "runToken", "workerId", outcome, "costMicros", "costIsEstimate", "startedAt")
               VALUES ($1, $2, $3, gen_random_uuid(), 'w', $4::"AttemptOutcome", $5, $6, $7::timestamp)`,
              [workspace, capture, n + 1, outcome, cost, estimate, startedAt],
            );
          }
        }
        return workspace;
      },
      async (sql, workspace) => {
        const kept = (await sql(KEPT_SQL, [workspace])).rows;
        expect(kept).toEqual((await sql(REBUILT_SQL, [workspace])).rows);
        // Five ended attempts (the running one is not in it) on three days.
        expect(kept.reduce((n, r) => n + r.attempts, 0)).toBe(5);
        expect(kept.map((r) => r.day).sort()).toEqual(expect.arrayContaining(["2025-01-06", "2025-01-07", "2025-01-08"]));
        expect(kept.find((r) => r.unknownAttempts === 1)).toMatchObject({ unknownCostMicros: "700", estimatedCostMicros: "700", wastedMicros: "700" });
      },
    );
  });
});
