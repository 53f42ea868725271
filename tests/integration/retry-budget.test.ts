// A capture's retry budget (DESIGN.md "Retries by error class": at most `maxAttempts` failed or
// unknown calls, an unknown outcome retried at most `unknownRetries` times) must survive the
// hourly retention, which deletes ended attempts. Counted from the attempts table, a capture
// retried after retention ran got a fresh budget, and paid the provider again. Here, against a
// real provider call over HTTP (the fake OpenAI server, whose request log is the paid-call log):
// the automatic retry, with retention's batch held before its commit while a failure is
// recorded; an admin retry (a fresh allowance, as it gives, and no more); and a lease expiry
// after an unknown outcome. And a capture whose paid answer could not be stored stays refused a
// retry once retention deleted the attempt that said so. Plus the migrations that backfill both.
import { describe, expect, it } from "vitest";
import { acrossMigration, oldSchemaWorkspace, type Sql } from "../support/partial-migrations";
import { claimed, inProcessRunner, newSpace, type Space, startSpaceCheck } from "../support/lifecycle-fixtures";
import { gateAt } from "../support/pause";
import { retryCaptures } from "@/lib/checks/cancel-retry";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { expireAttempt } from "@/lib/lifecycle/lease";
import { failCapture } from "@/lib/lifecycle/results";
import { runCapture, type RunOutcome } from "@/lib/lifecycle/run/run-capture";

// Before anything reads env(): retries due at once (the backoff is not what is tested here), and
// the OpenAI adapter talks to the local server.
process.env.BEACON_RETRY_BASE_MS = "1";
process.env.OPENAI_API_KEY = "sk-test-retry-budget";

const DAY = 86_400_000;
const MAX_ATTEMPTS = 3; // the connections' default

const runner = inProcessRunner();
const { run } = runner;

/** Deletes every ended attempt (retention as if two days had passed). */
const retention = (batchSize?: number) => runRetention({ attemptRetentionDays: 1, now: new Date(Date.now() + 2 * DAY), attemptBatchSize: batchSize });

/**
 * A capture on the space's "OpenAI API" provider, whose every call fails with 503 (transient),
 * and the calls the fake provider has received since (each one a call that may be billed; the
 * tests run one at a time).
 */
async function failingCapture(space: Space) {
  const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
  runner.openai.enqueue(...Array.from({ length: 20 }, () => ({ kind: "status", status: 503 }) as const));
  const before = runner.openai.requests.length;
  return { captureId: captureIds[0]!, calls: () => runner.openai.requests.length - before };
}

/** Runs the capture as its jobs would, until it ends (bounded: a runaway budget shows as too many calls, not a hang). */
async function runUntilEnded(captureId: string, most = 10): Promise<RunOutcome> {
  let outcome: RunOutcome = "skipped";
  for (let i = 0; i < most; i++) {
    outcome = await run(captureId);
    if (outcome !== "retry") return outcome;
  }
  return outcome;
}

describe("a capture's retry budget across retention", () => {
  it("is not renewed when retention deletes its failed attempts between automatic retries, also with a batch held while a failure is recorded", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureId, calls } = await failingCapture(space);

    expect(await run(captureId)).toBe("retry");
    // The worst moment: a batch has deleted the first failed attempt and holds it, uncommitted,
    // while the second call fails and its failure is recorded.
    const gate = gateAt("retention:batch-before-commit");
    const pass = retention(100);
    await gate.reached;
    expect(await run(captureId)).toBe("retry");
    gate.open();
    await pass;
    await retention();
    expect(await db().attempt.count({ where: { captureId } })).toBe(0);

    expect(await runUntilEnded(captureId)).toBe("failed");
    expect(calls(), "paid calls").toBe(MAX_ATTEMPTS);
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId } });
    expect(capture).toMatchObject({ status: "failed", attemptCount: MAX_ATTEMPTS, lastErrorClass: "transient" });
    expect(capture.lastError).toContain(`gave up after ${MAX_ATTEMPTS} attempts`);
  });

  it("after an admin retry is the fresh allowance an admin retry gives, not more, when retention deleted the attempts before it", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureId, calls } = await failingCapture(space);
    expect(await runUntilEnded(captureId)).toBe("failed");
    expect(calls()).toBe(MAX_ATTEMPTS);

    await retention();
    expect(await db().attempt.count({ where: { captureId } })).toBe(0);
    await retryCaptures(space.owner, { captureId });
    expect(await runUntilEnded(captureId)).toBe("failed");
    expect(calls(), "paid calls: the first allowance, then a fresh one").toBe(2 * MAX_ATTEMPTS);
  });

  it("after an admin retry is the fresh allowance, not one more for each call a worker's shutdown cut off (those are not counted as spent)", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureId, calls } = await failingCapture(space);
    // A worker shutting down cuts its call off: the attempt ends cancelled (reason shutdown) and
    // the capture runs again at once elsewhere, with no failed call counted (DESIGN.md "Workers").
    expect(await runCapture(captureId, { workerId: runner.workerId, shutdownSignal: AbortSignal.abort("shutdown") })).toBe("requeued");
    expect(await runUntilEnded(captureId)).toBe("failed");
    const cutOff = calls() - MAX_ATTEMPTS;
    expect(await db().capture.findUniqueOrThrow({ where: { id: captureId } })).toMatchObject({ attemptCount: MAX_ATTEMPTS + 1, spentAttempts: MAX_ATTEMPTS });

    await retryCaptures(space.owner, { captureId });
    expect(await runUntilEnded(captureId)).toBe("failed");
    expect(calls() - cutOff, "failed calls: the first allowance, then a fresh one").toBe(2 * MAX_ATTEMPTS);
  });

  it("charges nothing for a call its worker's shutdown stopped before it was sent (the provider never saw it)", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureId, calls } = await failingCapture(space);
    expect(await runCapture(captureId, { workerId: runner.workerId, shutdownSignal: AbortSignal.abort("shutdown") })).toBe("requeued");
    expect(calls(), "calls the provider received").toBe(0);
    const [attempt, ...others] = await db().attempt.findMany({ where: { captureId } });
    expect(others).toHaveLength(0);
    expect(attempt).toMatchObject({ outcome: "cancelled", reason: "shutdown", costMicros: 0n, costIsEstimate: false });
    const [budget] = await db().$queryRaw<{ charged: bigint }[]>`
      SELECT coalesce(sum("chargedMicros"), 0)::bigint AS charged FROM budget_periods WHERE "workspaceId" = ${space.workspaceId}::uuid`;
    expect(budget!.charged).toBe(0n);
  });

  it("keeps counting unknown outcomes: a lease that expires after one retried unknown outcome fails the capture, also when retention deleted the first", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const { unknownRetries } = await db().providerConnection.findUniqueOrThrow({ where: { id: space.connections["OpenAI API"]! } });
    expect(unknownRetries).toBe(1);

    expect(await expireAttempt(await claimed(captureId, runner.workerId), "lease_expired")).toBe("queued");
    await retention();
    expect(await db().attempt.count({ where: { captureId } })).toBe(0);
    // The provider may have billed both: not asked a third time.
    expect(await expireAttempt(await claimed(captureId, runner.workerId), "lease_expired")).toBe("failed");
  });
});

describe("a capture whose paid answer could not be stored", () => {
  it("stays refused a retry once retention deleted the attempt that says so: the provider was paid, a retry would pay it again", async () => {
    const space = await newSpace({ prompts: 1 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    const captureId = captureIds[0]!;
    // As run-capture's failUnstorable leaves it: the answer arrived and was paid, the database refused it.
    await failCapture(captureId, await claimed(captureId, runner.workerId), {
      next: "failed",
      lastError: "The answer could not be stored (23514: check violation)",
      attempt: { outcome: "failed", reason: "result_not_stored", errorClass: "permanent", costMicros: 700, costIsEstimate: false, latencyMs: 5 },
    });
    await expect(retryCaptures(space.owner, { captureId })).rejects.toThrow(/could not be stored/);

    await retention();
    expect(await db().attempt.count({ where: { captureId } })).toBe(0);
    await expect(retryCaptures(space.owner, { captureId })).rejects.toThrow(/could not be stored/);
    await expect(retryCaptures(space.owner, { checkId })).rejects.toThrow(/could not be stored/);
    expect(await db().capture.findUniqueOrThrow({ where: { id: captureId } })).toMatchObject({ status: "failed" });
  });
});

type CaptureShape = { status: string; attemptCount: number; lastError?: string; attempts: { outcome: string | null; reason?: string }[] };

/** Captures of the given shapes in a fresh workspace, in the old schema (plain SQL); their ids by name. */
async function arrangeCaptures(sql: Sql, shapes: Record<string, CaptureShape>): Promise<Record<string, string>> {
  const one = async (text: string, values: unknown[] = []) => (await sql(`${text} RETURNING id`, values)).rows[0].id as string;
  const { workspace, connection, provider, brand, prompt } = await oldSchemaWorkspace(sql);
  const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures") VALUES ($1, $2, 6)`, [workspace, brand]);
  const ids: Record<string, string> = {};
  for (const [i, [name, shape]] of Object.entries(shapes).entries()) {
    ids[name] = await one(
      `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "attemptCount", "maxAttempts", model, "searchMode", "lastError")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::"CaptureStatus", $9, 3, 'm', 'auto', $10)`,
      [workspace, check, brand, prompt, provider, connection, i + 1, shape.status, shape.attemptCount, shape.lastError ?? null],
    );
    // The attempts left are the last ones (retention deletes the oldest first).
    for (const [j, attempt] of shape.attempts.entries()) {
      await sql(
        `INSERT INTO attempts ("workspaceId", "captureId", number, "runToken", "workerId", outcome, reason) VALUES ($1, $2, $3, gen_random_uuid(), 'w', $4::"AttemptOutcome", $5)`,
        [workspace, ids[name], shape.attemptCount - shape.attempts.length + j + 1, attempt.outcome, attempt.reason ?? null],
      );
    }
  }
  return ids;
}

/** Each named capture's `columns`, as rows of values. */
async function columnsOf(sql: Sql, ids: Record<string, string>, columns: string[]) {
  const { rows } = await sql(`SELECT id, ${columns.map((c) => `"${c}"`).join(", ")} FROM captures`);
  return Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, columns.map((c) => rows.find((r) => r.id === id)![c])]));
}

describe("migration 20261211100000_capture_retry_budget", () => {
  it("counts what the attempts left spent, and each attempt retention deleted as spent (up to maxAttempts for a capture that may still run)", async () => {
    const shapes: Record<string, CaptureShape> = {
      waitingOneDeleted: { status: "retry_wait", attemptCount: 2, attempts: [{ outcome: "failed" }] },
      waitingAllDeleted: { status: "queued", attemptCount: 5, attempts: [] },
      runningAfterShutdown: { status: "running", attemptCount: 2, attempts: [{ outcome: "cancelled", reason: "shutdown" }, { outcome: null }] },
      failedSomeDeleted: { status: "failed", attemptCount: 3, attempts: [{ outcome: "unknown" }] },
      succeededAfterFailure: { status: "succeeded", attemptCount: 2, attempts: [{ outcome: "failed" }, { outcome: "succeeded" }] },
      neverRun: { status: "queued", attemptCount: 0, attempts: [] },
    };
    await acrossMigration(
      "20261211100000_capture_retry_budget",
      (sql) => arrangeCaptures(sql, shapes),
      async (sql, ids) => {
        expect(await columnsOf(sql, ids, ["spentAttempts", "unknownAttempts"])).toEqual({
          waitingOneDeleted: [2, 0],
          waitingAllDeleted: [3, 0],
          runningAfterShutdown: [0, 0],
          failedSomeDeleted: [3, 1],
          succeededAfterFailure: [1, 0],
          neverRun: [0, 0],
        });
      },
    );
  });
});

describe("migration 20261211100100_capture_paid_answer_lost", () => {
  it("marks the captures whose paid answer could not be stored: by their attempt, or by the reason they show once retention deleted it", async () => {
    const lost = "The answer could not be stored (23514: check violation)";
    const shapes: Record<string, CaptureShape> = {
      attemptKept: { status: "failed", attemptCount: 1, lastError: lost, attempts: [{ outcome: "failed", reason: "result_not_stored" }] },
      attemptDeleted: { status: "failed", attemptCount: 1, lastError: lost, attempts: [] },
      otherFailure: { status: "failed", attemptCount: 3, lastError: "Simulated invalid request (400)", attempts: [{ outcome: "failed", reason: "invalid_request" }] },
      answered: { status: "succeeded", attemptCount: 1, attempts: [{ outcome: "succeeded" }] },
    };
    await acrossMigration(
      "20261211100100_capture_paid_answer_lost",
      (sql) => arrangeCaptures(sql, shapes),
      async (sql, ids) => {
        expect(await columnsOf(sql, ids, ["paidAnswerLost"])).toEqual({ attemptKept: [true], attemptDeleted: [true], otherFailure: [false], answered: [false] });
      },
    );
  });
});
