// A check's cancel and retry from the check page are operations a worker runs (issue 20 item 4):
// the server action records the operation and enqueues its job, so it answers at once and never
// holds the page's next poll; the poll shows the operation and its outcome. The job runs the same
// transitions the synchronous path ran (lib/checks/cancel-retry.ts), so its guards hold: here a
// kill switch and a cancel land while the retry's job is held at retry:after-plan.
import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { budgetNow, claim, claimed, expectBudgetConsistent, heldFinish, liveWorker, newSpace, startSpaceCheck, succeed } from "../support/lifecycle-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { CANCELLED_SINCE, CANCEL_WAITING, cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, requestCheckRetry, runCheckOperation } from "@/lib/checks/operations";
import { checkProgress } from "@/lib/checks/progress";
import { pollsAgain } from "@/lib/checks/progress-state";
import { onPausePoint } from "@/lib/db/pause-points";
import { checkTally } from "@/lib/captures/check-counts";
import { revokeConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { POST as cancelCheckRoute } from "@/app/api/v1/checks/[id]/cancel/route";
import { callRoute } from "../support/api-fixtures";
import { cancelCheckNow } from "../support/check-fixtures";
import { removeMember } from "@/lib/workspaces/members";

const statuses = async (checkId: string) => (await db().capture.findMany({ where: { checkId }, select: { status: true } })).map((c) => c.status);

/** The waiting graphile-worker jobs of the check's operations. */
const operationJobs = (checkId: string) =>
  db().$queryRaw<{ task_identifier: string; queue_name: string | null; payload: { operationId: string } }[]>`
    SELECT v.task_identifier, v.queue_name, j.payload FROM graphile_worker.jobs v JOIN graphile_worker._private_jobs j ON j.id = v.id
    WHERE v.task_identifier = 'check_operation' AND v.queue_name = ${`check:${checkId}`} ORDER BY v.id`;

describe("a check's retry", () => {
  it("by an admin removed while its job plans: the removal waits for the retry, which is never committed after it", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCheckNow(space.owner, checkId);
    const admin = await db().user.create({ data: { id: randomUUID(), name: "Ada Admin", email: `ada.${randomUUID().slice(0, 8)}@example.com` } });
    const membership = await db().membership.create({ data: { workspaceId: space.workspaceId, userId: admin.id, role: "admin" } });
    const { operationId } = await requestCheckRetry({ workspaceId: space.workspaceId, userId: admin.id, role: "admin" }, checkId);

    // The job has read the admin's membership and planned the retry; the owner removes the admin now.
    const gate = gateAt("retry:after-plan");
    const job = runCheckOperation(operationId);
    await gate.reached;
    const owner = await db().user.findUniqueOrThrow({ where: { id: space.owner.userId! } });
    const workspace = await db().workspace.findUniqueOrThrow({ where: { id: space.workspaceId } });
    let gateOpened = false;
    let removedFirst = false;
    const ctx = { userId: owner.id, role: "owner" as const, user: { id: owner.id, name: owner.name, email: owner.email } as never, workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name } };
    const removal = removeMember(ctx, membership.id).then(() => {
      removedFirst = !gateOpened;
    });
    // Either the removal waits for the retry (its membership share-locked) or, unguarded, commits first.
    await Promise.race([removal, waitForLockWaiter()]);
    gateOpened = true;
    gate.open();
    await job;
    await removal;

    expect(removedFirst, "the removal committed while the retry it should refuse was still to commit").toBe(false);
    expect((await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).status).toBe("completed");
    expect(await db().membership.count({ where: { id: membership.id } })).toBe(0);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("is recorded and enqueued by the request, run by its job, and shown by the poll", async () => {
    const space = await newSpace({ prompts: 3 });
    const { checkId } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT", "Gemini"] });
    await cancelCheckNow(space.owner, checkId);

    const { operationId } = await requestCheckRetry(space.owner, checkId);

    expect(await statuses(checkId), "the request moves nothing").toEqual(Array(6).fill("cancelled"));
    expect(await operationJobs(checkId)).toEqual([{ task_identifier: "check_operation", queue_name: `check:${checkId}`, payload: { operationId } }]);
    expect((await checkProgress(space.workspaceId, checkId, { page: 1 })).check.operation).toMatchObject({ id: operationId, kind: "retry", status: "queued" });
    expect(await requestCheckRetry(space.owner, checkId), "a double click asks once").toEqual({ operationId });

    await runCheckOperation(operationId);

    expect(await statuses(checkId)).toEqual(Array(6).fill("queued"));
    expect((await checkProgress(space.workspaceId, checkId, { page: 1 })).check.operation).toEqual({
      id: operationId,
      kind: "retry",
      status: "completed",
      result: { retried: 6, refused: [] },
      error: null,
    });
    expect((await budgetNow(space.workspaceId)).reserved, "the retry holds its estimate").toBeGreaterThan(0n);
    await runCheckOperation(operationId); // a job run twice (a crash after the commit) does nothing more
    await expectBudgetConsistent(space.workspaceId);
  });

  it("never answers a poll so that it stops while the retry reopens the check: the poll held between its header's reads while the retry runs whole", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCheckNow(space.owner, checkId);
    const { operationId } = await requestCheckRetry(space.owner, checkId);
    expect(pollsAgain((await checkProgress(space.workspaceId, checkId, { page: 1 })).check), "a finished check with its retry queued").toBe(true);

    // The worst moment: the poll has read one part of its header when the retry's job reopens
    // the check and marks itself completed; then the poll reads the other part.
    let ran = false;
    const release = onPausePoint("progress:between-header-reads", async () => {
      if (ran) return;
      ran = true;
      await runCheckOperation(operationId);
    });
    try {
      const answer = await checkProgress(space.workspaceId, checkId, { page: 1 });
      expect(ran).toBe(true);
      expect(await statuses(checkId), "the retry queued both").toEqual(["queued", "queued"]);
      expect(
        pollsAgain(answer.check),
        `an answer of status ${answer.check.status} beside the retry ${answer.check.operation?.status} stops the polls of a check that runs again`,
      ).toBe(true);
    } finally {
      release();
    }
  });

  it("asked by two admins at the same moment is one operation: the second waits for the first's record, then finds it", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2 });
    await cancelCheckNow(space.owner, checkId);
    const admin = { ...space.owner, role: "admin" as const };
    // The worst moment: the first request has looked for a pending retry (none) and not recorded its own.
    const gate = gateAt("operation:none-pending", (context) => context.checkId === checkId);
    const first = requestCheckRetry(space.owner, checkId);
    await gate.reached;
    const second = requestCheckRetry(admin, checkId);
    // Either the second waits for the first (the check's row) or, unguarded, records its own.
    await Promise.race([second, waitForLockWaiter()]);
    gate.open();

    const [a, b] = await Promise.all([first, second]);
    expect(b, "the second request is answered with the first's operation").toEqual(a);
    expect(await db().checkOperation.count({ where: { checkId, kind: "retry" } })).toBe(1);
    expect(await operationJobs(checkId)).toHaveLength(1);
  });

  it("asked before a cancel whose job ran first (a retry's job held up): retries nothing and the cancel stands", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCapture(space.owner, captureIds[0]!);
    const { operationId } = await requestCheckRetry(space.owner, checkId);
    // The retry's job waits behind other work; meanwhile a cancel is asked and its job runs.
    await cancelCheckNow(space.owner, checkId);

    await runCheckOperation(operationId);

    expect(await statuses(checkId)).toEqual(["cancelled", "cancelled"]);
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "failed", error: CANCELLED_SINCE });
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).cancelRequestedAt, "the check keeps its cancel").not.toBeNull();
    expect((await budgetNow(space.workspaceId)).reserved).toBe(0n);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("asked after a cancel from the page whose job had not run yet: the cancel's job runs first, then the retry, the person's latest word", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCapture(space.owner, captureIds[0]!);
    const cancel = await requestCheckCancel(space.owner, checkId);
    const retry = await requestCheckRetry(space.owner, checkId);
    // The check's queue runs them in the order asked.
    await runCheckOperation(cancel.operationId);
    await runCheckOperation(retry.operationId);

    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: retry.operationId } })).toMatchObject({ status: "completed", result: { retried: 2, refused: [] } });
    expect(await statuses(checkId)).toEqual(["queued", "queued"]);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("asked on a web server whose clock runs ahead, then cancelled: still sees the cancel as the later word", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCapture(space.owner, captureIds[0]!);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    let operationId: string;
    try {
      ({ operationId } = await requestCheckRetry(space.owner, checkId));
    } finally {
      vi.useRealTimers();
    }
    await cancelCheckNow(space.owner, checkId);
    await runCheckOperation(operationId);
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "failed", error: CANCELLED_SINCE });
    expect(await statuses(checkId)).toEqual(["cancelled", "cancelled"]);
  });

  it("retries the captures that had ended when it was asked, not one a person cancelled after", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCapture(space.owner, captureIds[0]!);
    const { operationId } = await requestCheckRetry(space.owner, checkId);
    await cancelCapture(space.owner, captureIds[1]!);

    await runCheckOperation(operationId);

    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "completed", result: { retried: 1, refused: [] } });
    expect((await db().capture.findUniqueOrThrow({ where: { id: captureIds[0]! } })).status).toBe("queued");
    expect((await db().capture.findUniqueOrThrow({ where: { id: captureIds[1]! } })).status, "cancelled after the retry was asked").toBe("cancelled");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("run twice at once (a lease taken over): the second run, held until the first committed and a cancel followed, retries nothing and the operation stays completed", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCheckNow(space.owner, checkId);
    const { operationId } = await requestCheckRetry(space.owner, checkId);
    // The second run has marked the operation running and is about to do its work.
    const gate = gateAt("operation:started", (context) => context.operationId === operationId);
    const second = runCheckOperation(operationId);
    await gate.reached;
    await runCheckOperation(operationId);
    expect(await statuses(checkId), "the first run retried both").toEqual(["queued", "queued"]);
    // The person stops the check again before the second run goes on.
    await cancelCheckNow(space.owner, checkId);
    gate.open();
    await second;

    expect(await statuses(checkId), "retried once; the later cancel stands").toEqual(["cancelled", "cancelled"]);
    expect(await db().event.count({ where: { checkId, kind: "capture_retried" } })).toBe(2);
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "completed", result: { retried: 2, refused: [] } });
    expect((await budgetNow(space.workspaceId)).reserved).toBe(0n);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("is refused at once when the check has nothing to retry, and for a member", async () => {
    const space = await newSpace();
    const { checkId } = await startSpaceCheck(space);
    await expect(requestCheckRetry(space.owner, checkId)).rejects.toThrow(/no failed or cancelled captures/);
    await expect(requestCheckRetry({ ...space.owner, role: "member" }, checkId)).rejects.toThrow(/Only admins and owners/);
    expect(await operationJobs(checkId)).toEqual([]);
  });

  it("whose connection is revoked while its job is held runs nothing on it: the claim refuses every capture it queued", async () => {
    const space = await newSpace({ prompts: 3 });
    const workerId = await liveWorker();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT"] });
    await cancelCheckNow(space.owner, checkId);
    const { operationId } = await requestCheckRetry(space.owner, checkId);
    const gate = gateAt("retry:after-plan", (context) => context.checkId === checkId);
    const running = runCheckOperation(operationId);
    await gate.reached;

    await revokeConnection(space.connections.ChatGPT!, space.workspaceId);
    gate.open();
    await running;

    // Planned before the revoke, the retry queued them; none of them starts.
    expect(await statuses(checkId)).toEqual(Array(3).fill("queued"));
    for (const id of captureIds) expect((await claim(id, workerId)).result.kind).toBe("refused");
    expect(await db().attempt.count({ where: { captureId: { in: captureIds } } }), "no attempt, so no call").toBe(0);
    const rows = await db().capture.findMany({ where: { checkId }, select: { status: true, lastError: true, reservedMicros: true } });
    for (const row of rows) expect(row).toMatchObject({ status: "failed", lastError: expect.stringMatching(/revoked this workspace's access/), reservedMicros: 0n });
    expect(await budgetNow(space.workspaceId)).toMatchObject({ reserved: 0n, inFlight: 0n });

    // Asked again, the retry's job now refuses them all, with the reason, and changes nothing.
    const again = await requestCheckRetry(space.owner, checkId);
    await runCheckOperation(again.operationId);
    expect((await checkProgress(space.workspaceId, checkId, { page: 1 })).check.operation).toMatchObject({
      id: again.operationId,
      status: "failed",
      error: expect.stringMatching(/None of this check's failed or cancelled captures can be retried.*revoked/),
    });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("with a cancel landing while its job is held: nothing it queued starts before the cancel runs, which stops everything", async () => {
    const space = await newSpace({ prompts: 3 });
    const workerId = await liveWorker();
    const { checkId } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT", "Gemini"] });
    await cancelCheckNow(space.owner, checkId);
    const retry = await requestCheckRetry(space.owner, checkId);
    const gate = gateAt("retry:after-plan", (context) => context.checkId === checkId);
    const running = runCheckOperation(retry.operationId);
    await gate.reached;

    // The check is finished, but a retry of it is under way: the cancel is taken, queued behind
    // it. The retry holds the check's row, so the cancel's request waits for it to commit.
    const asked = requestCheckCancel(space.owner, checkId);
    await waitForLockWaiter();
    gate.open();
    await running;
    const cancel = await asked;
    expect((await operationJobs(checkId)).map((j) => j.payload.operationId)).toContain(cancel.operationId);
    // Between the retry's commit and the cancel's job, the check carries the cancel: the retried
    // captures are queued, and a worker's claim does not start them (the retry used to clear it).
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).cancelRequestedAt).not.toBeNull();
    const queued = await db().capture.findMany({ where: { checkId, status: "queued" }, select: { id: true } });
    expect(queued).toHaveLength(6);
    for (const { id } of queued) expect((await claim(id, workerId)).result.kind, `claim of ${id}`).not.toBe("claimed");
    await runCheckOperation(cancel.operationId);

    expect(await statuses(checkId)).toEqual(Array(6).fill("cancelled"));
    const captures = await db().capture.findMany({ where: { checkId }, select: { id: true } });
    for (const { id } of captures) expect((await claim(id, workerId)).result.kind).toBe("not_runnable");
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "cancelled", finishedAt: expect.any(Date) });
    expect(await checkTally(checkId)).toMatchObject({ cancelled: 6, reservedMicros: 0n });
    expect(await budgetNow(space.workspaceId)).toMatchObject({ reserved: 0n, inFlight: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("that has not run when a cancel is asked for does nothing", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2 });
    await cancelCheckNow(space.owner, checkId);
    const retry = await requestCheckRetry(space.owner, checkId);
    const cancel = await requestCheckCancel(space.owner, checkId);

    await runCheckOperation(retry.operationId);
    await runCheckOperation(cancel.operationId);

    expect(await statuses(checkId)).toEqual(["cancelled", "cancelled"]);
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: retry.operationId } })).toMatchObject({ status: "failed", error: CANCEL_WAITING });
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("a capture's retry", () => {
  it("is refused while a cancel of its check waits to run, and changes nothing", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    await cancelCapture(space.owner, captureIds[0]!);
    await requestCheckCancel(space.owner, checkId);
    const before = await statuses(checkId);
    await expect(retryCaptures(space.owner, { captureId: captureIds[0]! })).rejects.toThrow(CANCEL_WAITING);
    expect(await statuses(checkId)).toEqual(before);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).cancelRequestedAt).not.toBeNull();
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("a check's cancel", () => {
  it("stops new claims at once and cancels the waiting captures when its job runs", async () => {
    const space = await newSpace({ prompts: 3 });
    const workerId = await liveWorker();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT"] });

    const { operationId } = await requestCheckCancel(space.owner, checkId);

    expect(await statuses(checkId), "the request moves no capture").toEqual(Array(3).fill("queued"));
    expect((await checkProgress(space.workspaceId, checkId, { page: 1 })).check).toMatchObject({ cancelRequested: true, operation: { id: operationId, kind: "cancel", status: "queued" } });
    expect((await claim(captureIds[0]!, workerId)).result.kind, "no capture starts once the cancel is asked for").toBe("not_runnable");

    await runCheckOperation(operationId);

    expect(await statuses(checkId)).toEqual(Array(3).fill("cancelled"));
    expect((await checkProgress(space.workspaceId, checkId, { page: 1 })).check.operation).toMatchObject({ status: "completed", result: { cancelledNow: 3, aborting: 0 } });
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "cancelled" });
    await expect(requestCheckCancel(space.owner, checkId)).rejects.toThrow(/already finished/);
    await expectBudgetConsistent(space.workspaceId);
  });

  // A finished check takes a cancel only while a retry of it is still to run (the cancel then
  // stops what the retry would queue): when the retry's job comes, the waiting cancel refuses it,
  // and the cancel's job finds the check as it had finished, with nothing to stop.
  it("asked behind a retry of a finished check stops the retry and leaves the check's status as it finished", async () => {
    const space = await newSpace({ prompts: 2 });
    const workerId = await liveWorker();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT"] });
    await cancelCapture(space.owner, captureIds[0]!);
    await succeed(captureIds[1]!, await claimed(captureIds[1]!, workerId));
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "completed_with_errors", cancelRequestedAt: null });

    const retry = await requestCheckRetry(space.owner, checkId);
    const cancel = await requestCheckCancel(space.owner, checkId);
    await runCheckOperation(retry.operationId);
    await runCheckOperation(cancel.operationId);

    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: retry.operationId } })).toMatchObject({ status: "failed", error: CANCEL_WAITING });
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: cancel.operationId } })).toMatchObject({ status: "completed", result: { cancelledNow: 0, aborting: 0 } });
    expect((await statuses(checkId)).sort()).toEqual(["cancelled", "succeeded"]);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "completed_with_errors", cancelRequestedAt: null, cancelledById: null });
    expect(await db().event.count({ where: { checkId, kind: "check_cancelled" } }), "nothing was cancelled").toBe(0);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("asked while the check's last capture is finishing it waits for the finish and is refused: the finished check keeps its status", async () => {
    const space = await newSpace({ prompts: 1 });
    const workerId = await liveWorker();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    // The last capture succeeds; its check's finish is written (status completed) and not committed.
    const afterCommit = gateAt("finish:before", (context) => context.checkId === checkId);
    const succeeded = succeed(captureIds[0]!, await claimed(captureIds[0]!, workerId));
    await afterCommit.reached; // committed; its own finish held before it looks
    const finish = await heldFinish(checkId);
    expect(finish.status).toBe("completed");

    const asked = requestCheckCancel(space.owner, checkId).then(
      () => "taken",
      (error: unknown) => (error as Error).message,
    );
    await waitForLockWaiter();
    finish.release();
    await finish.finishing;
    afterCommit.open();
    await succeeded;

    expect(await asked).toMatch(/already finished/);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "completed", cancelRequestedAt: null, cancelledById: null });
    expect(await db().checkOperation.count({ where: { checkId } }), "no operation recorded").toBe(0);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("through the REST API is the page's: asked while a retry's job is held, it is taken, runs after the retry and stops what it queued, recorded with its key", async () => {
    const space = await newSpace({ prompts: 3 });
    const workerId = await liveWorker();
    const { checkId } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT", "Gemini"] });
    await cancelCheckNow(space.owner, checkId);
    const key = await createApiKey(space.workspaceId, { name: "script", scope: "admin", createdById: space.owner.userId! });
    const retry = await requestCheckRetry(space.owner, checkId);
    const gate = gateAt("retry:after-plan", (context) => context.checkId === checkId);
    const running = runCheckOperation(retry.operationId);
    await gate.reached;

    // The worst moment: the retry has planned and holds the check's row; a script cancels the check.
    const asked = callRoute(cancelCheckRoute, { method: "POST", path: `/api/v1/checks/${checkId}/cancel`, apiKey: key.key, params: { id: checkId } });
    await Promise.race([asked, waitForLockWaiter()]);
    gate.open();
    await running;
    const answer = await asked;

    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const cancel = await db().checkOperation.findFirstOrThrow({ where: { checkId, kind: "cancel", status: "queued" } });
    expect(answer.body).toEqual({ operationId: cancel.id });
    expect(cancel).toMatchObject({ requestedById: space.owner.userId, requestedByApiKeyId: key.id });
    // Until its job runs, nothing the retry queued starts.
    const queued = await db().capture.findMany({ where: { checkId, status: "queued" }, select: { id: true } });
    expect(queued).toHaveLength(6);
    for (const { id } of queued) expect((await claim(id, workerId)).result.kind, `claim of ${id}`).not.toBe("claimed");
    await runCheckOperation(cancel.id);

    expect(await statuses(checkId)).toEqual(Array(6).fill("cancelled"));
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "cancelled", cancelledById: space.owner.userId });
    const events = await db().event.findMany({ where: { checkId, kind: "capture_cancelled", createdAt: { gte: cancel.createdAt } }, select: { actorApiKeyId: true } });
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.actorApiKeyId === key.id), "the cancel's events name the key").toBe(true);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ reserved: 0n, inFlight: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });
});
