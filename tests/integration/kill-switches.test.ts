// Revoke, disable and the model allowlist are kill switches (issue 17 defect 2): once an operator
// revokes a workspace's grant, disables a connection or takes a model off its allowlist, the
// claim itself refuses every capture that would call it (failed with the reason, no attempt, no
// slot, nothing reserved, its hold given back), and a retry says why it cannot run. Observed on a
// fake OpenAI over real HTTP: no call after the change. Also defect 6's rule for retries: a
// capture holding a paid answer is never asked again. Runs in this process (runCapture, the
// route handler) and, once, end to end with a worker process.
import { describe, expect, it } from "vitest";
import { callRoute, expectApiError } from "../support/api-fixtures";
import { budgetNow, captureRow, claimed, expectBudgetConsistent, inProcessRunner, newSpace, type Space, startSpaceCheck, succeed } from "../support/lifecycle-fixtures";
import { gateAt, lockWaiters } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { startWorker } from "../support/worker-process";
import { POST as retryCaptureRoute } from "@/app/api/v1/captures/[id]/retry/route";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { RunOutcome } from "@/lib/lifecycle/run/run-capture";
import { cancelCapture, estimateRetry, retryCaptures } from "@/lib/checks/cancel-retry";
import { captureEstimate } from "@/lib/checks/create-check";
import { retryRefusals } from "@/lib/lifecycle/admin";
import { checkTally } from "@/lib/captures/check-counts";
import { revokeConnection, updateConnection } from "@/lib/connections/connections";
import { failCapture } from "@/lib/lifecycle/results";
import { db } from "@/lib/db/prisma";
import { connectionInputSchema } from "@/lib/providers/registry";
import { cancelCheckNow } from "../support/check-fixtures";

// Before anything reads env(): the OpenAI adapter talks to the local server (worker processes
// started here inherit both).
process.env.OPENAI_API_KEY = "sk-test-kill-switches";
const runner = inProcessRunner();
const { run } = runner;

/** An operator's edit of a connection, through the Instance page's path (lib/connections). */
async function operatorEdit(connectionId: string, change: { enabled?: boolean; models?: string[] }) {
  const current = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
  await updateConnection(connectionId, connectionInputSchema.parse({ ...current, ...change }));
}

type KillSwitch = { name: string; apply: (space: Space, connectionId: string) => Promise<void>; reason: RegExp };

const SWITCHES: KillSwitch[] = [
  { name: "a revoked grant", apply: (space, connectionId) => revokeConnection(connectionId, space.workspaceId), reason: /operator revoked this workspace's access to OpenAI/ },
  { name: "a disabled connection", apply: (_space, connectionId) => operatorEdit(connectionId, { enabled: false }), reason: /operator disabled OpenAI/ },
  {
    name: "a model taken off the allowlist",
    apply: (_space, connectionId) => operatorEdit(connectionId, { models: ["gpt-not-this-one"] }),
    reason: /model "[^"]+" is no longer allowed on OpenAI/,
  },
];

/** The workspace's grant spend on the connection this month, summed over its shards. */
async function grantSpend(space: Space, connectionId: string) {
  const [row] = await db().$queryRaw<{ inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT sum("inFlightMicros")::bigint AS "inFlight", sum("chargedMicros")::bigint AS charged FROM grant_spend_periods
    WHERE "connectionId" = ${connectionId}::uuid AND "workspaceId" = ${space.workspaceId}::uuid`;
  return { inFlight: row?.inFlight ?? 0n, charged: row?.charged ?? 0n };
}

const attemptsOn = (connectionId: string) => db().attempt.count({ where: { capture: { connectionId } } });

describe.each(SWITCHES)("$name", ({ apply, reason }) => {
  it("fails the captures queued before it without a call, and refuses their retry with the reason", async () => {
    const space = await newSpace({ prompts: 3 });
    const connectionId = space.connections["OpenAI API"]!;
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 3, providers: ["OpenAI API"] });
    const [answered, refusedByProvider, waiting] = captureIds as [string, string, string];
    expect(await run(answered)).toBe("succeeded");
    runner.openai.enqueue({ kind: "status", status: 400, body: { error: { message: "Invalid request", type: "invalid_request_error" } } });
    expect(await run(refusedByProvider)).toBe("failed");

    await apply(space, connectionId);
    const callsAtChange = runner.openai.requests.length;
    const budgetAtChange = await budgetNow(space.workspaceId);

    // Retry says why, and changes nothing.
    await expect(retryCaptures(space.owner, { captureId: refusedByProvider })).rejects.toThrow(reason);
    await expect(retryCaptures(space.owner, { checkId })).rejects.toThrow(reason);
    expect(await captureRow(refusedByProvider)).toMatchObject({ status: "failed", attemptCount: 1 });
    expect(await budgetNow(space.workspaceId), "a refused retry holds nothing").toEqual(budgetAtChange);

    // The capture queued before the change: its claim refuses it.
    expect(await run(waiting)).toBe("failed");
    const refused = await captureRow(waiting);
    expect(refused).toMatchObject({ status: "failed", attemptCount: 0, reservedMicros: 0n, lastErrorClass: "permanent", runToken: null, waitingFor: null });
    expect(refused.lastError).toMatch(reason);
    expect(refused.finishedAt).not.toBeNull();
    expect(refused.attempts, "no attempt opened").toEqual([]);
    expect(await db().connectionSlot.count({ where: { captureId: waiting } }), "no slot held").toBe(0);
    expect(runner.openai.requests.length, "no call after the change").toBe(callsAtChange);

    // Ledgers: nothing in flight, no hold left; the check finished with the right counts.
    expect(await budgetNow(space.workspaceId)).toMatchObject({ reserved: 0n, inFlight: 0n });
    expect((await grantSpend(space, connectionId)).inFlight).toBe(0n);
    expect(await checkTally(checkId)).toMatchObject({ succeeded: 1, failed: 2, queued: 0, running: 0, total: 3, reservedMicros: 0n });
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "completed_with_errors", finishedAt: expect.any(Date) });
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("retry", () => {
  it("of a check retries what can run and reports what cannot, and why", async () => {
    const space = await newSpace();
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["ChatGPT", "OpenAI API"] });
    await cancelCheckNow(space.owner, checkId);
    await revokeConnection(space.connections["OpenAI API"]!, space.workspaceId);

    const result = await retryCaptures(space.owner, { checkId });

    expect(result).toEqual({ retried: 1, refused: [{ reason: expect.stringMatching(SWITCHES[0]!.reason), captures: 1 }] });
    const rows = await db().capture.findMany({ where: { id: { in: captureIds } }, select: { connectionId: true, status: true } });
    expect(rows.find((r) => r.connectionId === space.connections.ChatGPT)?.status).toBe("queued");
    expect(rows.find((r) => r.connectionId === space.connections["OpenAI API"])?.status, "the refused one is left as it was").toBe("cancelled");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("through the REST API answers 409 with the reason and changes nothing", async () => {
    const space = await newSpace();
    const connectionId = space.connections["OpenAI API"]!;
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    await cancelCapture(space.owner, captureIds[0]!);
    await operatorEdit(connectionId, { enabled: false });
    const { key } = await createApiKey(space.workspaceId, { name: "kill switches", scope: "admin", createdById: space.owner.userId! });
    const before = await captureRow(captureIds[0]!);

    const result = await callRoute(retryCaptureRoute, { method: "POST", path: `/api/v1/captures/${captureIds[0]}/retry`, apiKey: key, params: { id: captureIds[0]! } });

    expect(expectApiError(result, 409, { code: "conflict" }).message).toMatch(SWITCHES[1]!.reason);
    expect(await captureRow(captureIds[0]!)).toEqual(before);
  });

  it("refuses a cancelled capture that holds a paid answer (defect 6): it is never paid for again", async () => {
    const space = await newSpace();
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, runner.workerId);
    await succeed(captureId, runToken, 700);
    // A row as the old beacon_succeed left it when a cancel request arrived while the answer was
    // finishing: cancelled, its answer and its paid attempt kept.
    await db().$executeRaw`UPDATE captures SET status = 'cancelled', "lastError" = 'Cancelled by user' WHERE id = ${captureId}::uuid`;
    const before = await captureRow(captureId);

    await expect(retryCaptures(space.owner, { captureId })).rejects.toThrow(/already has a paid answer/);
    await expect(retryCaptures(space.owner, { checkId: before.checkId })).rejects.toThrow(/already has a paid answer/);
    expect(await captureRow(captureId)).toEqual(before);
  });
});

describe("retry of a capture whose paid answer could not be stored", () => {
  it("is refused: the provider was paid and a retry would pay it again", async () => {
    const space = await newSpace();
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, runner.workerId);
    // As run-capture's failUnstorable leaves it: the answer arrived and was paid, the database refused it.
    await failCapture(captureId, runToken, {
      next: "failed",
      lastError: "The answer could not be stored (23514: check violation)",
      attempt: { outcome: "failed", reason: "result_not_stored", errorClass: "permanent", costMicros: 700, costIsEstimate: false, latencyMs: 5 },
    });
    const before = await captureRow(captureId);

    await expect(retryCaptures(space.owner, { captureId })).rejects.toThrow(/could not be stored/);
    await expect(retryCaptures(space.owner, { checkId: before.checkId })).rejects.toThrow(/could not be stored/);
    expect(await captureRow(captureId)).toEqual(before);
  });
});

/**
 * The retry dialog's estimate as it was first computed, capture by capture: every failed or
 * cancelled capture read with its prompt and connection, its refusal (retryRefusals), and
 * captureEstimate of each one that can run. estimateRetry must say exactly this.
 */
async function estimateCaptureByCapture(workspaceId: string, checkId: string) {
  const retryable = await db().capture.findMany({
    where: { checkId, workspaceId, status: { in: ["failed", "cancelled"] } },
    select: { id: true, searchMode: true, prompt: { select: { text: true } }, connection: true },
  });
  const refusals = await retryRefusals(db(), retryable.map((c) => c.id));
  const runnable = retryable.filter((c) => !refusals.has(c.id));
  const byReason = new Map<string, number>();
  for (const reason of refusals.values()) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  return {
    captures: runnable.length,
    estimateMicros: runnable.reduce((sum, c) => sum + captureEstimate(c.prompt.text, { ...c.connection, searchMode: c.searchMode }), 0),
    refused: [...byReason].map(([reason, captures]) => ({ reason, captures })),
  };
}

const byReasonText = (refused: { reason: string; captures: number }[]) => [...refused].sort((a, b) => a.reason.localeCompare(b.reason));

describe("the retry's estimate", () => {
  it("equals the capture-by-capture estimate on a check of failed, cancelled, paid and refused captures", async () => {
    const space = await newSpace({ prompts: 4 });
    // Prompts of different lengths (one not ASCII): each capture's estimate depends on its prompt's.
    const texts = ["CRM?", "Какая CRM лучше всего подходит для команды из 40 человек? 🚀 Сравни цены.", `Which CRM ${"really ".repeat(40)}fits a team of nine?`];
    for (const [i, text] of texts.entries()) await db().prompt.update({ where: { id: space.promptIds[i]! }, data: { text } });
    const providers = ["ChatGPT", "Perplexity", "Gemini", "Claude", "OpenAI API"];
    const { checkId } = await startSpaceCheck(space, { prompts: 4, providers, samples: 2 });
    const rows = await db().capture.findMany({ where: { checkId }, orderBy: { id: "asc" }, select: { id: true, connectionId: true } });
    const on = (provider: string) => rows.filter((r) => r.connectionId === space.connections[provider]).map((r) => r.id);
    const [chatgptPaid, ...chatgpt] = on("ChatGPT") as [string, ...string[]];
    const [perplexityLost] = on("Perplexity") as [string];
    const [geminiSucceeded] = on("Gemini") as [string];
    const [claudeKept, claudePartial] = on("Claude") as [string, string];

    await succeed(chatgptPaid, await claimed(chatgptPaid, runner.workerId), 700);
    await succeed(geminiSucceeded, await claimed(geminiSucceeded, runner.workerId), 700);
    await failCapture(perplexityLost, await claimed(perplexityLost, runner.workerId), {
      next: "failed",
      lastError: "The answer could not be stored (23514: check violation)",
      attempt: { outcome: "failed", reason: "result_not_stored", errorClass: "permanent", costMicros: 700, costIsEstimate: false, latencyMs: 5 },
    });
    await cancelCheckNow(space.owner, checkId);
    // Rows as an old cancel race (a paid answer kept on a cancelled capture), retention (the answer
    // without its attempts), a cancelled call's partial answer and failed captures leave them.
    await db().$executeRaw`UPDATE captures SET status = 'cancelled' WHERE id = ${chatgptPaid}::uuid`;
    await db().$executeRaw`UPDATE captures SET "answerText" = 'Acme is kept.', "answerIsPartial" = false WHERE id = ${claudeKept}::uuid`;
    await db().$executeRaw`UPDATE captures SET "answerText" = 'Acme is', "answerIsPartial" = true WHERE id = ${claudePartial}::uuid`;
    await db().$executeRaw`UPDATE captures SET status = 'failed', "lastError" = 'Provider error' WHERE id = ANY(${chatgpt.slice(0, 3)}::uuid[])`;
    await revokeConnection(space.connections["OpenAI API"]!, space.workspaceId);
    await operatorEdit(space.connections.Gemini!, { models: ["gemini-not-this-one"] });

    const expected = await estimateCaptureByCapture(space.workspaceId, checkId);
    const estimate = await estimateRetry(space.owner, checkId);

    expect({ ...estimate, refused: byReasonText(estimate.refused) }).toEqual({ ...expected, refused: byReasonText(expected.refused), budget: expect.anything() });
    // What the capture-by-capture estimate says here, so that neither can drift unnoticed.
    expect(expected.captures, "ChatGPT 7, Perplexity 7, Claude 7").toBe(21);
    expect(expected.estimateMicros).toBeGreaterThan(0);
    const kind = (reason: string) =>
      [/already has a paid answer/, /could not be stored/, /is no longer allowed on Simulated Gemini/, /revoked this workspace's access to OpenAI/].findIndex((r) => r.test(reason));
    expect(expected.refused.map((r) => [kind(r.reason), r.captures]).sort()).toEqual([[0, 2], [1, 1], [2, 7], [3, 8]]);
  });
});

describe("beacon_grant_add", () => {
  it("refuses a connection the workspace holds no grant of; one granted to all needs none", async () => {
    const space = await newSpace();
    const connectionId = space.connections["OpenAI API"]!;
    await revokeConnection(connectionId, space.workspaceId);
    const add = async (id: string) =>
      (await db().$queryRaw<{ added: Date | null }[]>`SELECT beacon_grant_add(${id}::uuid, ${space.workspaceId}::uuid, 1000::bigint) AS added`)[0]!.added;
    expect(await add(connectionId), "no grant: no spend").toBeNull();
    const toAll = await db().providerConnection.update({ where: { id: space.connections.Claude! }, data: { grantedToAll: true } });
    await db().connectionGrant.deleteMany({ where: { connectionId: toAll.id } });
    expect(await add(toAll.id)).toBeInstanceOf(Date);
    const fits = async (id: string) => (await db().$queryRaw<{ fits: boolean }[]>`SELECT beacon_call_would_fit(${space.workspaceId}::uuid, ${id}::uuid, 1::bigint) AS fits`)[0]!.fits;
    expect(await fits(connectionId), "nor would a call fit").toBe(false);
    expect(await fits(toAll.id)).toBe(true);
  });
});

describe("a claim racing a revoke", () => {
  it("a claim held before its commit: the revoke waits for it; no attempt appears once the revoke is visible", async () => {
    const space = await newSpace();
    const connectionId = space.connections["OpenAI API"]!;
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const callsBefore = runner.openai.requests.length;
    const held = gateAt("claim:before-commit", (context) => context.captureId === captureId);
    const running = run(captureId);
    await held.reached;

    let revokeDone = false;
    // What is visible as soon as the revoke has committed.
    const revoke = revokeConnection(connectionId, space.workspaceId).then(async () => {
      revokeDone = true;
      return attemptsOn(connectionId);
    });
    // The revoke either waits for the held claim, or (without the claim's lock) commits past it.
    await waitFor(async () => revokeDone || (await lockWaiters()) > 0, { what: "the revoke to wait for the claim or to commit", timeoutMs: 10_000, intervalMs: 10 });
    held.open();
    const attemptsAtRevoke = await revoke;
    const outcome = await running;

    expect(await attemptsOn(connectionId), "no attempt opened after the revoke was visible").toBe(attemptsAtRevoke);
    expect(attemptsAtRevoke, "the held claim committed first: its call was in flight before the revoke").toBe(1);
    expect(outcome).toBe("succeeded");
    expect(runner.openai.requests.length - callsBefore, "calls: only the one claimed before the revoke").toBe(1);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a revoke held before its commit: a claim waits for it, then refuses; nothing is called", async () => {
    const space = await newSpace();
    const connectionId = space.connections["OpenAI API"]!;
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const callsBefore = runner.openai.requests.length;
    const held = gateAt("access:before-commit");
    const revoke = revokeConnection(connectionId, space.workspaceId);
    await held.reached;

    let ran: RunOutcome | null = null;
    const running = run(captureId).then((outcome) => (ran = outcome));
    // The claim waits for the revoke (or, reading the grant the revoke has not committed yet, runs).
    await waitFor(async () => ran !== null || (await lockWaiters()) > 0, { what: "the claim to wait for the revoke or to finish", timeoutMs: 10_000, intervalMs: 10 });
    held.open();
    await revoke;

    expect(await running).toBe("failed");
    expect((await captureRow(captureId)).lastError).toMatch(SWITCHES[0]!.reason);
    expect(runner.openai.requests.length, "nothing called").toBe(callsBefore);
    expect(await attemptsOn(connectionId)).toBe(0);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("end to end, with a worker process", () => {
  it("a check queued before the revoke ends failed with the reason, and the provider hears nothing", async () => {
    const space = await newSpace({ prompts: 3 });
    const connectionId = space.connections["OpenAI API"]!;
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 3, providers: ["OpenAI API"], samples: 2 });
    await revokeConnection(connectionId, space.workspaceId);
    const callsAtRevoke = runner.openai.requests.length;

    const worker = await startWorker("kill-switch");
    await waitFor(async () => (await db().check.findUniqueOrThrow({ where: { id: checkId } })).finishedAt, {
      what: "the check to finish",
      timeoutMs: 45_000,
      details: () => worker.output(),
    });

    expect(runner.openai.requests.length, "no call after the revoke").toBe(callsAtRevoke);
    const rows = await db().capture.findMany({ where: { id: { in: captureIds } }, select: { status: true, lastError: true, attemptCount: true } });
    expect(rows.map((r) => [r.status, r.attemptCount])).toEqual(captureIds.map(() => ["failed", 0]));
    for (const row of rows) expect(row.lastError).toMatch(SWITCHES[0]!.reason);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "failed" });
    expect(await budgetNow(space.workspaceId)).toMatchObject({ reserved: 0n, inFlight: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });
});
