// npm run bench -- --actions [--runs=N]: every server action reachable from the check page and the
// Jobs page, timed on a 2,000-capture check (issue 20 item 4). Next.js runs one browser's server
// actions one at a time, so a slow action holds the next poll and a slow poll holds the click:
// each must answer within ACTION_GOAL_MS (p95). Timed here is the lib function each action calls
// (parse, authorize and the session lookup of lib/actions/safe-action.ts come on top, the same for
// every action), one call at a time through this process's Prisma client, with no worker running,
// so the check's 2,000 captures stay queued (or cancelled) between the steps.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { listCapturesForAdmin, queueStats, workersOverview } from "@/lib/admin/jobs-page";
import { listBreakers } from "@/lib/breaker/queries";
import { cancelCapture, estimateRetry, retryCaptures, type Caller } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, requestCheckRetry, runCheckOperation } from "@/lib/checks/operations";
import { checkProgress } from "@/lib/checks/progress";
import { getCaptureDetail } from "@/lib/checks/queries";
import { db } from "@/lib/db/prisma";
import { isOperator } from "@/lib/instance/operators";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";
import { startCheck, type Fixtures } from "../lib/fixtures";
import { summarize, type Summary } from "../lib/stats";

/** Issue 20's goal for every action on the check and Jobs pages, p95 on a 2,000-capture check. */
export const ACTION_GOAL_MS = 200;

export type ActionRow = { page: "check" | "jobs" | "worker"; action: string; what: string; ms: Summary };
export type ActionsResult = { captures: number; runs: number; rows: ActionRow[] };

async function time(runs: number, call: (i: number) => Promise<unknown>): Promise<Summary> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await call(i);
    ms.push(performance.now() - t0);
  }
  return summarize(ms);
}

export async function measureActions(fx: Fixtures, options: { runs: number; log: (line: string) => void }): Promise<ActionsResult> {
  const { runs, log } = options;
  const caller: Caller = { workspaceId: fx.workspaceId, userId: fx.ownerId, role: "owner" };
  const { checkId } = await startCheck(fx, fx.promptIds);
  const captures = await db().capture.findMany({ where: { checkId }, select: { id: true }, orderBy: { id: "asc" } });
  log(`actions: a ${captures.length}-capture check, ${runs} runs per action`);
  const rows: ActionRow[] = [];
  const row = async (page: ActionRow["page"], action: string, what: string, call: (i: number) => Promise<unknown>) => {
    await call(-1); // warm-up: the first call of a query plan
    const ms = await time(runs, call);
    rows.push({ page, action, what, ms });
    log(`actions: ${action} (${what}): median ${ms.median} ms, p95 ${ms.p95} ms`);
  };

  const lastPage = Math.ceil(fx.promptIds.length / 25);
  let version: string | undefined;
  await row("check", "checkProgressAction", "poll, page 1, full", async () => {
    version = (await checkProgress(fx.workspaceId, checkId, { page: 1 })).version;
  });
  await row("check", "checkProgressAction", "poll, page 1, delta", async () => {
    version = (await checkProgress(fx.workspaceId, checkId, { page: 1, version })).version;
  });
  await row("check", "checkProgressAction", `poll, page ${lastPage}, full`, () => checkProgress(fx.workspaceId, checkId, { page: lastPage }));
  await row("check", "captureDetailAction", "one capture", (i) => getCaptureDetail(fx.workspaceId, captures[(i + captures.length) % captures.length]!.id));

  // Jobs page reads, while the 2,000 captures wait.
  await row("jobs", "adminOverviewAction", "queue and workers", () => Promise.all([queueStats(fx.workspaceId), workersOverview()]));
  await row("jobs", "adminCapturesAction", "no filter, page 1", () => listCapturesForAdmin(fx.workspaceId, { page: 1, pageSize: 25 }));
  await row("jobs", "adminCapturesAction", "this check, last page", () => listCapturesForAdmin(fx.workspaceId, { checkId, page: 80, pageSize: 25 }));
  await row("jobs", "adminCapturesAction", "status queued", () => listCapturesForAdmin(fx.workspaceId, { status: "queued", page: 1, pageSize: 25 }));
  await row("jobs", "breakersAction", "breakers", async () => Promise.all([listBreakers({ workspaceId: fx.workspaceId }), isOperator(fx.ownerId)]));
  await row("jobs", "listProvidersAction", "providers", () => listProviderConfigs(fx.workspaceId));

  // One capture: cancel, then retry it (check page's dialog, Jobs page's row).
  const one = captures[0]!.id;
  const single: { cancel: number[]; retry: number[] } = { cancel: [], retry: [] };
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    await cancelCapture(caller, one);
    single.cancel.push(performance.now() - t0);
    t0 = performance.now();
    await retryCaptures(caller, { captureId: one });
    single.retry.push(performance.now() - t0);
  }
  rows.push({ page: "jobs", action: "cancelCaptureAction", what: "one queued capture", ms: summarize(single.cancel) });
  rows.push({ page: "jobs", action: "retryCaptureAction", what: "one cancelled capture", ms: summarize(single.retry) });

  // The whole check: ask for the cancel of its 2,000 waiting captures, the retry's estimate, the
  // retry of them all; each cancel and retry is then run as its worker runs it (check_operation),
  // timed apart: that is the work the action no longer waits for.
  const bulk: Record<"cancel" | "cancelJob" | "estimate" | "retry" | "retryJob", number[]> = { cancel: [], cancelJob: [], estimate: [], retry: [], retryJob: [] };
  const timed = async <T>(into: number[], call: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await call();
    into.push(performance.now() - t0);
    return value;
  };
  for (let i = 0; i < runs; i++) {
    const cancel = await timed(bulk.cancel, () => requestCheckCancel(caller, checkId));
    await timed(bulk.cancelJob, () => runCheckOperation(cancel.operationId));
    await timed(bulk.estimate, () => estimateRetry(caller, checkId));
    const retry = await timed(bulk.retry, () => requestCheckRetry(caller, checkId));
    await timed(bulk.retryJob, () => runCheckOperation(retry.operationId));
    const last = (k: keyof typeof bulk) => Math.round(bulk[k].at(-1)!);
    log(`actions: bulk round ${i + 1}: cancel ${last("cancel")} ms (its job ${last("cancelJob")} ms), estimate ${last("estimate")} ms, retry ${last("retry")} ms (its job ${last("retryJob")} ms)`);
  }
  rows.push({ page: "check", action: "cancelCheckAction", what: `${captures.length} waiting captures`, ms: summarize(bulk.cancel) });
  rows.push({ page: "check", action: "estimateRetryAction", what: `${captures.length} cancelled captures`, ms: summarize(bulk.estimate) });
  rows.push({ page: "check", action: "retryFailedCapturesAction", what: `${captures.length} cancelled captures`, ms: summarize(bulk.retry) });
  rows.push({ page: "worker", action: "check_operation job", what: `cancel of ${captures.length} waiting captures`, ms: summarize(bulk.cancelJob) });
  rows.push({ page: "worker", action: "check_operation job", what: `retry of ${captures.length} cancelled captures`, ms: summarize(bulk.retryJob) });
  return { captures: captures.length, runs, rows };
}

export function actionsMarkdown(result: ActionsResult, header: string): string {
  const lines = [
    header,
    "",
    `| page | action | what | median ms | p95 ms | goal (p95) |`,
    `| --- | --- | --- | ---: | ---: | --- |`,
    ...result.rows.map(
      (r) => `| ${r.page} | \`${r.action}\` | ${r.what} | ${r.ms.median} | ${r.ms.p95} | ${r.page === "worker" ? "none: a worker's job" : `${r.ms.p95 <= ACTION_GOAL_MS ? "✓" : "✗"} ≤ ${ACTION_GOAL_MS}`} |`,
    ),
  ];
  return lines.join("\n");
}
