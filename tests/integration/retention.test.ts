// The hourly retention pass (lib/jobs/retention.ts) deletes old attempts in bounded batches, each
// its own short transaction. Here: for random ages, outcomes and batch sizes it deletes exactly
// the ended attempts older than the retention (fast-check against the rows read before); a batch
// that fails half-way leaves the committed batches deleted and the next pass finishes the work; the
// metric counters take nothing back and the running gauge stays equal to the open attempts; and
// neither side of a race waits for the other: an attempt closes while a batch is held before its
// commit, and a whole pass runs while a success is held before its commit. A check whose
// attempts it deleted keeps their cost when a retry makes it finish again.
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { metricValue, parseMetrics, type MetricSample } from "../support/metrics-text";
import { actAt, gateAt, waitForLockWaiter } from "../support/pause";
import { acrossMigration, oldSchemaWorkspace } from "../support/partial-migrations";
import { claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { getCheckSummary } from "@/lib/checks/queries";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { collectMetrics } from "@/lib/metrics/collect";

const DAY = 86_400_000;
const OUTCOMES = [null, "succeeded", "failed", "unknown", "cancelled"] as const;

let space: Space;
let workerId: string;

beforeAll(async () => {
  space = await newSpace({ prompts: 4 });
  workerId = await liveWorker();
});

type AttemptRow = { id: string; startedAt: string; outcome: string | null };

/** Every attempt of the database, with its start as UTC text (microseconds, as stored). */
const allAttempts = () =>
  db().$queryRaw<AttemptRow[]>`SELECT id::text, to_char("startedAt", 'YYYY-MM-DD"T"HH24:MI:SS.US') AS "startedAt", outcome::text FROM attempts ORDER BY id`;

/** Attempts of one new capture, started `ageMinutes` before `now`, ended with `outcome` (null: still open). */
async function insertAttempts(now: Date, attempts: { ageMinutes: number; outcome: (typeof OUTCOMES)[number] }[]): Promise<void> {
  const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
  for (const [i, a] of attempts.entries()) {
    const startedAt = new Date(now.getTime() - a.ageMinutes * 60_000).toISOString();
    await db().$executeRaw`
      INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "endedAt", outcome)
      VALUES (gen_random_uuid(), ${space.workspaceId}::uuid, ${captureIds[0]}::uuid, ${i + 1}, gen_random_uuid(), 'retention-test',
        ${startedAt}::timestamptz AT TIME ZONE 'UTC', CASE WHEN ${a.outcome}::text IS NULL THEN NULL ELSE ${startedAt}::timestamptz AT TIME ZONE 'UTC' END,
        ${a.outcome}::"AttemptOutcome")`;
  }
}

/** The ids that a pass with this cutoff must leave: open attempts, and ended ones not older than the cutoff. */
const kept = (rows: AttemptRow[], cutoff: Date) =>
  rows.filter((r) => r.outcome === null || new Date(`${r.startedAt}Z`).getTime() >= cutoff.getTime()).map((r) => r.id);

const ids = (rows: AttemptRow[]) => rows.map((r) => r.id);

/** beacon_provider_attempts_total by provider and outcome, as exported. */
function attemptCounters(metrics: MetricSample[]): Record<string, number> {
  return Object.fromEntries(metrics.filter((m) => m.name === "beacon_provider_attempts_total").map((m) => [`${m.labels.provider}/${m.labels.outcome}`, m.value]));
}

/** The running gauge of every provider equals the open attempts counted from the rows. */
async function expectRunningEqualsOpenAttempts(metrics: MetricSample[]) {
  const open = await db().$queryRaw<{ provider: string; n: bigint }[]>`
    SELECT pc.name AS provider, count(*) AS n FROM attempts a JOIN captures c ON c.id = a."captureId" JOIN provider_configs pc ON pc.id = c."providerConfigId"
    WHERE a.outcome IS NULL GROUP BY 1`;
  const providers = new Set([...metrics.filter((m) => m.name === "beacon_provider_attempts_total").map((m) => m.labels.provider!), ...open.map((o) => o.provider)]);
  for (const provider of providers) {
    expect(metricValue(metrics, "beacon_provider_attempts_total", { provider, outcome: "running" }), `${provider} running`).toBe(Number(open.find((o) => o.provider === provider)?.n ?? 0));
  }
}

const scrape = async () => parseMetrics((await collectMetrics()).body);

describe("attempt retention in batches", () => {
  it("deletes exactly the ended attempts older than the retention, for random ages, outcomes and batch sizes", async () => {
    const attempt = fc.record({ ageMinutes: fc.integer({ min: 0, max: 20 * 1440 }), outcome: fc.constantFrom(...OUTCOMES) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(attempt, { maxLength: 25 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: 6 }),
        // Ages on whole days too: an attempt exactly at the cutoff stays.
        fc.boolean(),
        async (attempts, retentionDays, batchSize, onTheDay) => {
          const now = new Date();
          await insertAttempts(now, onTheDay ? attempts.map((a) => ({ ...a, ageMinutes: Math.round(a.ageMinutes / 1440) * 1440 })) : attempts);
          const before = await allAttempts();
          const cutoff = new Date(now.getTime() - retentionDays * DAY);
          const expected = kept(before, cutoff);
          const result = await runRetention({ attemptRetentionDays: retentionDays, now, attemptBatchSize: batchSize });
          expect(ids(await allAttempts())).toEqual(expected);
          expect(result.attemptsDeleted).toBe(before.length - expected.length);
          expect(result.attemptsLeft).toBe(false);
          // Bounded statements: never more than a batch at a time.
          expect(result.attemptBatches).toBeGreaterThanOrEqual(Math.ceil(result.attemptsDeleted / batchSize));
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a batch that fails before its commit deletes nothing; the batches before it stay done and the next pass finishes", async () => {
    const now = new Date();
    await insertAttempts(now, Array.from({ length: 9 }, (_, i) => ({ ageMinutes: 3 * 1440 + i, outcome: "succeeded" as const })));
    const before = await allAttempts();
    const expected = kept(before, new Date(now.getTime() - DAY));
    let batch = 0;
    actAt("retention:batch-before-commit", () => {
      if (++batch === 2) throw new Error("the worker died");
    }, 2);
    await expect(runRetention({ attemptRetentionDays: 1, now, attemptBatchSize: 4 })).rejects.toThrow("the worker died");
    // The first batch committed; the second rolled back.
    expect((await allAttempts()).length).toBe(before.length - 4);
    const again = await runRetention({ attemptRetentionDays: 1, now, attemptBatchSize: 4 });
    expect(ids(await allAttempts())).toEqual(expected);
    expect(again.attemptsDeleted).toBe(before.length - expected.length - 4);
  });

  it("stops when its time budget is used up, and the next pass goes on", async () => {
    const now = new Date();
    await insertAttempts(now, Array.from({ length: 6 }, (_, i) => ({ ageMinutes: 3 * 1440 + i, outcome: "failed" as const })));
    const expected = kept(await allAttempts(), new Date(now.getTime() - DAY));
    // A budget of 0 ms lets one batch run (so every pass makes progress), then stops.
    const first = await runRetention({ attemptRetentionDays: 1, now, attemptBatchSize: 2, attemptBudgetMs: 0 });
    expect(first).toMatchObject({ attemptsDeleted: 2, attemptBatches: 1, attemptsLeft: true });
    const rest = await runRetention({ attemptRetentionDays: 1, now, attemptBatchSize: 2 });
    expect(rest.attemptsLeft).toBe(false);
    expect(ids(await allAttempts())).toEqual(expected);
  });

  it("takes no metric counter back, and the running gauge stays the open attempts", async () => {
    const { captureIds } = await startSpaceCheck(space, { prompts: 4, providers: ["ChatGPT", "Gemini"] });
    for (const id of captureIds.slice(0, 6)) await succeed(id, await claimed(id, workerId));
    await claimed(captureIds[6]!, workerId); // left open
    const before = await scrape();
    const result = await runRetention({ attemptRetentionDays: 1, now: new Date(Date.now() + 2 * DAY), attemptBatchSize: 2 });
    expect(result.attemptsDeleted).toBeGreaterThanOrEqual(6);
    const after = await scrape();
    expect(attemptCounters(after)).toEqual(attemptCounters(before));
    expect(metricValue(after, "beacon_lease_expired_total")).toBe(metricValue(before, "beacon_lease_expired_total"));
    await expectRunningEqualsOpenAttempts(after);
    expect(await db().attempt.count({ where: { outcome: null } })).toBeGreaterThan(0);
  });
});

describe("attempt retention beside a capture that finishes", () => {
  /** Fails when `promise` does not settle within `ms`: the side that must not wait did. */
  const settlesWithin = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} waited for the other side`)), ms).unref())]);

  it("an attempt closes while a batch is held before its commit, without waiting; counters and rows stay exact", async () => {
    const now = new Date();
    await insertAttempts(now, Array.from({ length: 5 }, (_, i) => ({ ageMinutes: 3 * 1440 + i, outcome: "succeeded" as const })));
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["Claude"] });
    const runToken = await claimed(captureIds[0]!, workerId);
    const later = new Date(now.getTime() + 2 * DAY); // the open attempt is past the retention too
    const countersBefore = attemptCounters(await scrape());

    const gate = gateAt("retention:batch-before-commit");
    const pass = runRetention({ attemptRetentionDays: 1, now: later, attemptBatchSize: 2 });
    await gate.reached; // a batch deleted its rows and holds them, not committed
    const written = await settlesWithin(succeed(captureIds[0]!, runToken), 15_000, "the success");
    expect(written.kind).toBe("written");
    gate.open();
    const result = await pass;
    expect(result.attemptsLeft).toBe(false);

    const after = await scrape();
    // The success moved one attempt from running to succeeded; the deletions took nothing back.
    const expected = { ...countersBefore };
    expected["Claude/running"] = (expected["Claude/running"] ?? 0) - 1;
    expected["Claude/succeeded"] = (expected["Claude/succeeded"] ?? 0) + 1;
    expect(attemptCounters(after)).toEqual(expected);
    await expectRunningEqualsOpenAttempts(after);
    // Whatever this pass did not reach (the attempt closed after a batch read past it), the next one deletes.
    await runRetention({ attemptRetentionDays: 1, now: later });
    const cutoff = new Date(later.getTime() - DAY);
    const rows = await allAttempts();
    expect(ids(rows)).toEqual(kept(rows, cutoff));
    expect(rows.every((r) => r.outcome === null)).toBe(true);
  });

  it("a whole pass runs while a success is held before its commit, and leaves its attempt alone", async () => {
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["Perplexity"] });
    const runToken = await claimed(captureIds[0]!, workerId);
    const attempt = await db().attempt.findFirstOrThrow({ where: { captureId: captureIds[0]!, runToken } });
    const later = new Date(Date.now() + 2 * DAY);

    const gate = gateAt("succeed:before-commit");
    const success = succeed(captureIds[0]!, runToken);
    await gate.reached; // its attempt is closed in the success's transaction, not committed
    const result = await settlesWithin(runRetention({ attemptRetentionDays: 1, now: later, attemptBatchSize: 2 }), 15_000, "the retention pass");
    expect(result.attemptsLeft).toBe(false);
    expect(await db().attempt.findUnique({ where: { id: attempt.id } })).not.toBeNull();
    gate.open();
    expect((await success).kind).toBe("written");
    await expectRunningEqualsOpenAttempts(await scrape());
    const next = await runRetention({ attemptRetentionDays: 1, now: later });
    expect(next.attemptsDeleted).toBeGreaterThanOrEqual(1);
    expect(await db().attempt.findUnique({ where: { id: attempt.id } })).toBeNull();
  });
});

describe("a check whose attempts retention deleted", () => {
  it("keeps their cost in its charge when it finishes again after a retry", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT", "Gemini"] });
    const [answered, cancelled] = captureIds as [string, string];
    await succeed(answered, await claimed(answered, workerId), 1_000);
    await cancelCapture(space.owner, cancelled);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ chargedMicros: 1_000n, finishedAt: expect.any(Date) });

    // The answered capture's attempt goes; the check keeps what it cost.
    await runRetention({ attemptRetentionDays: 1, now: new Date(Date.now() + 2 * DAY) });
    expect(await db().attempt.count({ where: { captureId: answered } })).toBe(0);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).chargedMicros).toBe(1_000n);

    // The cancelled one is retried and answered: the check finishes again, charged both.
    await retryCaptures(space.owner, { captureId: cancelled });
    await succeed(cancelled, await claimed(cancelled, workerId), 700);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ chargedMicros: 1_700n, finishedAt: expect.any(Date) });
    // What the check pages show as spent counts them too.
    expect((await getCheckSummary(space.workspaceId, checkId)).spentMicros).toBe(1_700);
  });

  it("keeps them when the check finishes while a batch deleting them is held before its commit", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT", "Gemini"] });
    const [answered, retried] = captureIds as [string, string];
    await succeed(answered, await claimed(answered, workerId), 1_000);
    await cancelCapture(space.owner, retried);
    await retryCaptures(space.owner, { captureId: retried });
    const runToken = await claimed(retried, workerId);

    // The batch has deleted the answered capture's attempt and added its cost to the check, uncommitted.
    const gate = gateAt("retention:batch-before-commit");
    const pass = runRetention({ attemptRetentionDays: 1, now: new Date(Date.now() + 2 * DAY), attemptBatchSize: 10 });
    await gate.reached;
    // The success that finishes the check waits for the check's row, held by the batch.
    const success = succeed(retried, runToken, 700);
    await waitForLockWaiter();
    gate.open();
    await pass;
    expect((await success).kind).toBe("written");
    expect(await db().attempt.count({ where: { captureId: answered } })).toBe(0);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ chargedMicros: 1_700n, retiredAttemptMicros: 1_000n });
  });
});

describe("migration 20261220130000_check_retired_costs_backfill", () => {
  it("gives a check finished before retired costs were kept what its deleted attempts cost, and leaves every other check as it was", async () => {
    // [finished, chargedMicros, the costs of its attempts left]
    const shapes = {
      attemptsDeletedBefore: [true, 5_000, [2_000]],
      allDeletedBefore: [true, 3_000, []],
      whole: [true, 2_500, [1_000, 1_500]],
      open: [false, 0, [1_000]],
      // An attempt charged after the check finished (the repair pass's estimate): more left than charged.
      chargedLater: [true, 1_000, [2_000]],
    } as const;
    await acrossMigration(
      "20261220130000_check_retired_costs_backfill",
      async (sql) => {
        const one = async (text: string, values: unknown[] = []) => (await sql(`${text} RETURNING id`, values)).rows[0].id as string;
        const { workspace, connection, provider, brand, prompt } = await oldSchemaWorkspace(sql);
        const version = await one(`INSERT INTO prompt_versions ("workspaceId", "promptId", number, text) VALUES ($1, $2, 1, 'Which CRM?')`, [workspace, prompt]);
        const ids: Record<string, string> = {};
        for (const [name, [finished, charged, costs]] of Object.entries(shapes)) {
          const check = await one(
            `INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", status, "finishedAt", "chargedMicros") VALUES ($1, $2, 1, $3::"CheckStatus", $4, $5)`,
            [workspace, brand, finished ? "completed" : "running", finished ? new Date() : null, charged],
          );
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "promptVersionId", "providerConfigId", "connectionId", sample, status, "attemptCount", "maxAttempts", model, "searchMode")
             VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8::"CaptureStatus", 3, 3, 'm', 'auto')`,
            [workspace, check, brand, prompt, version, provider, connection, finished ? "succeeded" : "running"],
          );
          for (const [i, cost] of costs.entries()) {
            await sql(`INSERT INTO attempts ("workspaceId", "captureId", number, "runToken", "workerId", outcome, "costMicros") VALUES ($1, $2, $3, gen_random_uuid(), 'w', 'failed', $4)`, [workspace, capture, 3 - costs.length + i + 1, cost]);
          }
          ids[name] = check;
        }
        return ids;
      },
      async (sql, ids) => {
        const { rows } = await sql(`SELECT id, "retiredAttemptMicros"::int AS retired FROM checks`);
        const retired = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, rows.find((r) => r.id === id)!.retired]));
        expect(retired).toEqual({ attemptsDeletedBefore: 3_000, allDeletedBefore: 3_000, whole: 0, open: 0, chargedLater: 0 });
      },
    );
  });
});

describe("idempotency keys", () => {
  it("expire by the database's clock, which set them, not by the worker's", async () => {
    const { checkId: live } = await startSpaceCheck(space, { prompts: 1 });
    const { checkId: expired } = await startSpaceCheck(space, { prompts: 1 });
    const keyed = (checkId: string, minutes: number) => db().$executeRaw`
      UPDATE checks SET "idempotencyKey" = ${`retention-${checkId}`}, "requestHash" = 'h',
        "idempotencyExpiresAt" = now() + make_interval(mins => ${minutes}::int) WHERE id = ${checkId}::uuid`;
    await keyed(live, 60);
    await keyed(expired, -1);
    // The worker's clock runs two hours ahead of the database's.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3_600_000 });
    try {
      await runRetention({ attemptRetentionDays: 3650 });
    } finally {
      vi.useRealTimers();
    }
    const keys = await db().check.findMany({ where: { id: { in: [live, expired] } }, select: { id: true, idempotencyKey: true } });
    expect(Object.fromEntries(keys.map((k) => [k.id, k.idempotencyKey]))).toEqual({ [live]: `retention-${live}`, [expired]: null });
  });
});
