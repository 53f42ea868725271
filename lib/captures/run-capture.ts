import "server-only";
import { randomUUID } from "node:crypto";
import { analyzeAnswer, type AnalysisResult } from "@/lib/analysis/analyze";
import { mentionRows } from "@/lib/analysis/rows";
import { costOf, unknownOutcomeCost, worstCaseCost } from "@/lib/billing/money";
import { acquirePermission, recordCall, releaseProbe, type CallOutcome } from "@/lib/breaker/breaker";
import { activeRuns } from "@/lib/captures/active-runs";
import { claimCapture } from "@/lib/captures/lifecycle/claim";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import { attemptOutcome, failCapture, succeedCapture, type Failure, type WriteOutcome } from "@/lib/captures/lifecycle/results";
import { postponeCapture, runAgainLater } from "@/lib/captures/lifecycle/waiting";
import { decideAfterFailure } from "@/lib/captures/retry-policy";
import { isWaiting } from "@/lib/captures/states";
import { captureWatch } from "@/lib/captures/watch";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { lastLine } from "@/lib/errors";
import { executionSeconds, queueWaitSeconds } from "@/lib/metrics/worker-metrics";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderResponse } from "@/lib/providers/types";

export type RunOutcome =
  | "succeeded"
  | "failed"
  | "retry"
  | "cancelled"
  | "requeued"
  | "busy"
  | "postponed"
  | "waiting_for_budget"
  | "skipped"
  | "fenced"
  | "abandoned";

export type RunCaptureOptions = {
  /** graphile-worker pool id of this process; recorded on the attempt, used by the sweeper. */
  workerId: string;
  /** Fires when the worker is shutting down and its grace period is over. */
  shutdownSignal: AbortSignal;
  log?: (line: string) => void;
};

async function loadCapture(captureId: string) {
  return db().capture.findUnique({
    where: { id: captureId },
    include: {
      prompt: { select: { text: true, country: true, language: true } },
      providerConfig: true,
      brand: {
        select: {
          name: true,
          aliases: true,
          caseSensitiveAliases: true,
          domains: true,
          competitors: { select: { id: true, name: true, aliases: true, caseSensitiveAliases: true, domains: true }, orderBy: { createdAt: "asc" } },
        },
      },
    },
  });
}
type LoadedCapture = NonNullable<Awaited<ReturnType<typeof loadCapture>>>;

/**
 * One graphile-worker job = one try at a capture (DESIGN.md "How work flows", step 3). The
 * capture row is the source of truth: a job for a capture that is not waiting does nothing, so
 * duplicate or stale jobs are harmless. Every status change is a lifecycle transition
 * (lib/captures/lifecycle); this function decides which one, and calls the provider.
 */
export async function runCapture(captureId: string, options: RunCaptureOptions): Promise<RunOutcome> {
  const capture = await loadCapture(captureId);
  // A waiting capture with a cancel request cannot exist; if it does, the repair pass ends it.
  if (!capture || !isWaiting(capture.status) || capture.cancelRequestedAt) return "skipped";
  const config = capture.providerConfig;

  // Breaker open: no call and no attempt; the capture waits until the breaker may half-open.
  const permission = await acquirePermission(config);
  if (!permission.allowed) {
    await postponeCapture(captureId, { waitingFor: "breaker", delayMs: permission.retryInMs });
    return "postponed";
  }
  const { probeToken } = permission;
  const limits = { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls };
  const runToken = randomUUID();
  activeRuns.add(runToken);
  try {
    const claim = await claimCapture({
      captureId,
      provider: config,
      workerId: options.workerId,
      runToken,
      probeToken,
      worstCaseMicros: worstCaseCost(capture.prompt.text, capture.searchMode, limits, config),
    }).catch(async (error: unknown) => {
      // The connection may have died after the claim committed: then the run is ours after all.
      const attempt = await db().attempt.findUnique({ where: { runToken }, select: { number: true, outcome: true } }).catch(() => null);
      if (attempt && !attempt.outcome) return { kind: "claimed", attemptNumber: attempt.number } as const;
      if (probeToken) await releaseProbe(config.id, probeToken).catch(() => {});
      throw error;
    });
    if (claim.kind !== "claimed" && probeToken) await releaseProbe(config.id, probeToken);
    switch (claim.kind) {
      case "breaker_open":
        await postponeCapture(captureId, { waitingFor: "breaker", delayMs: claim.delayMs });
        return "postponed";
      case "busy":
        await runAgainLater(captureId, 200 + Math.floor(Math.random() * 800));
        return "busy";
      case "waiting_for_budget":
        return "waiting_for_budget";
      case "not_runnable":
        return "skipped";
    }
    const readyAt = capture.nextAttemptAt ?? capture.createdAt;
    queueWaitSeconds.observe({ provider: config.name }, Math.max(0, Date.now() - readyAt.getTime()) / 1000);
    return await runAttempt(capture, { runToken, probeToken, attemptNumber: claim.attemptNumber, limits }, options);
  } finally {
    activeRuns.delete(runToken);
  }
}

type Run = { runToken: string; probeToken: string | null; attemptNumber: number; limits: { maxOutputTokens: number; maxSearchCalls: number } };

/** The provider call of a claimed capture, and the transition that records its result. */
async function runAttempt(capture: LoadedCapture, run: Run, options: RunCaptureOptions): Promise<RunOutcome> {
  const captureId = capture.id;
  const config = capture.providerConfig;
  const log = options.log ?? (() => {});
  const controller = new AbortController();
  const abort = (reason: string) => !controller.signal.aborted && controller.abort(reason);
  const onShutdown = () => abort("shutdown");
  if (options.shutdownSignal.aborted) onShutdown();
  options.shutdownSignal.addEventListener("abort", onShutdown, { once: true });
  // The half-open probe decides for every capture of the provider: it gets a short timeout.
  const timeoutMs = run.probeToken ? Math.min(config.timeoutMs, config.breakerProbeTimeoutMs) : config.timeoutMs;
  const timeout = setTimeout(() => abort("timeout"), timeoutMs);
  const unwatch = captureWatch.register(captureId, { runToken: run.runToken, onCancel: () => abort("cancelled"), onLost: () => abort("lease_lost") });
  const started = performance.now();
  let response: ProviderResponse | null = null;
  let callError: unknown = null;
  try {
    const adapter = adapterFor(config.adapter);
    if (!adapter?.configured()) {
      throw new ProviderError(`Provider ${config.name} (${config.adapter}) is not configured on this server`, { retryClass: "permanent", reason: "not_configured" });
    }
    response = await adapter.call({
      prompt: capture.prompt.text,
      model: capture.model,
      searchMode: capture.searchMode,
      country: capture.prompt.country,
      language: capture.prompt.language,
      signal: controller.signal,
      onText: (delta) => captureWatch.appendText(captureId, delta),
      settings: (config.settings ?? {}) as Record<string, unknown>,
      limits: run.limits,
      subject: { brand: { name: capture.brand.name, domains: capture.brand.domains }, competitors: capture.brand.competitors },
      seed: `${captureId}:${run.attemptNumber}`,
    });
    if (!response.text.trim()) {
      throw new ProviderError("The provider returned an empty answer", { retryClass: "transient", reason: "empty_answer", requestId: response.requestId });
    }
  } catch (error) {
    response = null;
    callError = error;
  } finally {
    clearTimeout(timeout);
    options.shutdownSignal.removeEventListener("abort", onShutdown);
  }
  const latencyMs = Math.round(performance.now() - started);
  const partialText = captureWatch.partialText(captureId) || (callError as { partialText?: string } | null)?.partialText || "";
  await unwatch();

  try {
    await pausePoint("call:after-provider", { captureId });
    // The breaker's bookkeeping must not stand between a paid answer and its record.
    const tellBreaker = (outcome: CallOutcome) => recordCall(config, outcome, latencyMs, run.probeToken).catch((error: unknown) => log(`breaker: ${(error as Error).message}`));
    if (response) {
      await tellBreaker("success");
      const write = await persist(run.runToken, () => succeedCapture(captureId, run.runToken, successOf(capture, response!, latencyMs)), log);
      executionSeconds.observe({ provider: config.name, outcome: "succeeded" }, latencyMs / 1000);
      return outcomeOf(write);
    }
    await tellBreaker(breakerOutcome(callError));
    if (callError instanceof CallAbortedError && callError.abortReason === "lease_lost") return "fenced"; // another run owns it now
    const write = await persist(run.runToken, async () => failCapture(captureId, run.runToken, await failureOf(callError, capture, { partialText, latencyMs, limits: run.limits })), log);
    const outcome = callError instanceof CallAbortedError && callError.abortReason !== "timeout" ? "cancelled" : callError instanceof ProviderError && callError.retryClass !== "unknown" ? "failed" : "unknown";
    executionSeconds.observe({ provider: config.name, outcome }, latencyMs / 1000);
    log(`capture ${captureId} attempt ${run.attemptNumber}: ${(callError as Error)?.message ?? callError} -> ${write === "abandoned" ? write : write.kind === "lost" ? "lost" : write.status}`);
    return outcomeOf(write);
  } finally {
    if (run.probeToken) await releaseProbe(config.id, run.probeToken).catch(() => {});
  }
}

/** The answer, its cost and its analysis. An analysis that throws must not throw a paid answer away. */
function successOf(capture: LoadedCapture, response: ProviderResponse, latencyMs: number) {
  let analysis: AnalysisResult = { entities: [], citations: [] };
  try {
    analysis = analyzeAnswer({ answer: response.text, brand: capture.brand, competitors: capture.brand.competitors, sources: response.sources });
  } catch {
    // Kept without mentions; re-analysis (on the next brand edit) tries again.
  }
  return {
    text: response.text,
    usage: response.usage,
    requestId: response.requestId,
    costMicros: costOf(response.usage, capture.providerConfig),
    latencyMs,
    citations: analysis.citations,
    mentions: mentionRows(analysis, capture.brandId, capture.brand.competitors.map((c) => c.id)),
    searchQueries: response.searchQueries,
  };
}

/** How long a worker keeps trying to record a result before it gives the capture up. */
const resultWriteDeadlineMs = () => env().BEACON_WORKER_LEASE_SECONDS * 1000;

/**
 * Writes a result, again and again while the database fails (connection reset, failover,
 * timeouts): a paid answer must not be thrown away by a blip. A write that failed may still
 * have committed; a closed attempt means there is nothing left to write. After the deadline the
 * run is given up: its token leaves the heartbeat, and the sweeper takes the capture over.
 */
async function persist(runToken: string, write: () => Promise<WriteOutcome>, log: (line: string) => void): Promise<WriteOutcome | "abandoned"> {
  const deadline = Date.now() + resultWriteDeadlineMs();
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      log(`recording the result of run ${runToken} failed (${lastLine(error)}); trying again`);
      const closed = await attemptOutcome(runToken).catch(() => null);
      if (closed) return { kind: "lost" };
      if (Date.now() >= deadline) return "abandoned";
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** Math.min(attempt, 6))));
    }
  }
}

function outcomeOf(write: WriteOutcome | "abandoned"): RunOutcome {
  if (write === "abandoned") return "abandoned";
  if (write.kind === "lost") return "fenced";
  return { succeeded: "succeeded", retry_wait: "retry", failed: "failed", cancelled: "cancelled", queued: "requeued" }[write.status] as RunOutcome;
}

/** What a failed call tells the breaker: provider trouble counts, our aborts and bad requests do not. */
function breakerOutcome(error: unknown): CallOutcome {
  if (error instanceof CallAbortedError) return error.abortReason === "timeout" ? "failure" : "ignored";
  if (error instanceof ProviderError) return error.retryClass === "permanent" ? "ignored" : "failure";
  return "failure";
}

/** The `fail` transition for a failed call. */
async function failureOf(
  error: unknown,
  capture: LoadedCapture,
  ctx: { partialText: string; latencyMs: number; limits: Run["limits"] },
): Promise<Failure> {
  const config = capture.providerConfig;
  const estimate = unknownOutcomeCost(capture.prompt.text, capture.searchMode, ctx.limits, config);
  const base = { partialText: ctx.partialText || undefined };
  const aborted = (reason: string) => ({ outcome: "cancelled" as const, reason, costMicros: estimate, costIsEstimate: true, latencyMs: ctx.latencyMs });

  if (error instanceof CallAbortedError && error.abortReason === "cancelled") {
    // Two facts (DESIGN.md "Cancellation"): the user cancelled the capture, and the call was cut
    // off mid-flight, so whether the provider billed it is unknown (charged its estimate).
    return {
      ...base,
      next: "cancelled",
      lastError: "Cancelled by user",
      attempt: aborted("cancelled_by_user"),
      events: [{ kind: "attempt_aborted", data: { reason: "cancelled_by_user", billing: "unknown" } }],
    };
  }
  if (error instanceof CallAbortedError && error.abortReason === "shutdown") return { ...base, next: "queued", attempt: aborted("shutdown") };

  const failure =
    error instanceof ProviderError
      ? error
      : error instanceof CallAbortedError // timeout: the request was sent and may have been billed
        ? new ProviderError("The provider did not answer in time", { retryClass: "unknown", reason: "timeout" })
        : new ProviderError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, { retryClass: "unknown", reason: "unexpected_error" });
  const unknown = failure.retryClass === "unknown";
  const spent = await db().attempt.groupBy({ by: ["outcome"], where: { captureId: capture.id, outcome: { in: ["failed", "unknown"] } }, _count: true });
  const count = (o: string) => spent.find((r) => r.outcome === o)?._count ?? 0;
  const decision = decideAfterFailure({
    retryClass: failure.retryClass,
    reason: failure.message,
    spent: count("failed") + count("unknown") + 1,
    unknownSpent: count("unknown") + (unknown ? 1 : 0),
    maxAttempts: capture.maxAttempts,
    unknownRetries: config.unknownRetries,
    retryAfterMs: failure.retryAfterMs,
    baseMs: env().BEACON_RETRY_BASE_MS,
  });
  return {
    ...base,
    next: decision.next === "retry" ? "retry_wait" : "failed",
    // Measured from now, when the response has arrived: Retry-After counts from then.
    delayMs: decision.next === "retry" ? decision.delayMs : undefined,
    lastError: decision.next === "retry" ? failure.message : decision.reason,
    attempt: {
      outcome: unknown ? "unknown" : "failed",
      reason: failure.reason,
      errorClass: failure.retryClass,
      httpStatus: failure.httpStatus,
      providerRequestId: failure.requestId,
      costMicros: unknown ? estimate : 0,
      costIsEstimate: unknown,
      latencyMs: ctx.latencyMs,
    },
  };
}
