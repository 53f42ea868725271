import "server-only";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { mentionRows } from "@/lib/analysis/rows";
import { costOf, estimateUsage } from "@/lib/billing/money";
import { acquirePermission, recordCall, releaseProbe, type CallOutcome } from "@/lib/breaker/breaker";
import { claimCapture, FencedOutError, recordFailure, recordSuccess, spentAttempts, type FailureRecord } from "@/lib/captures/attempts";
import { postponeCapture, requeueSoon } from "@/lib/captures/queue";
import { decideAfterFailure } from "@/lib/captures/retry-policy";
import { captureWatch } from "@/lib/captures/watch";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { executionSeconds, queueWaitSeconds } from "@/lib/metrics/worker-metrics";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor } from "@/lib/providers/registry";

export type RunOutcome = "succeeded" | "failed" | "retry" | "cancelled" | "requeued" | "busy" | "postponed" | "skipped" | "fenced";

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

/**
 * One graphile-worker job = one try at a capture (DESIGN.md "How work flows", step 3). The
 * capture row is the source of truth: a job for a capture that is finished, running elsewhere
 * or cancelled does nothing, so duplicate or stale jobs are harmless.
 */
export async function runCapture(captureId: string, options: RunCaptureOptions): Promise<RunOutcome> {
  const log = options.log ?? (() => {});
  const capture = await loadCapture(captureId);
  if (!capture || !["queued", "retry_wait", "postponed"].includes(capture.status) || capture.cancelRequestedAt) return "skipped";
  const config = capture.providerConfig;

  // Breaker open: no call and no attempt; the capture waits until the breaker may half-open.
  const permission = await acquirePermission(config);
  if (!permission.allowed) {
    await postponeCapture(captureId, permission.retryAt);
    return "postponed";
  }
  const { probeToken } = permission;

  const claim = await claimCapture(captureId, config, options.workerId, probeToken);
  if (claim.kind !== "claimed" && probeToken) await releaseProbe(config.id, probeToken);
  if (claim.kind === "breaker_open") {
    await postponeCapture(captureId, claim.retryAt);
    return "postponed";
  }
  if (claim.kind === "busy") {
    await requeueSoon(captureId, 200 + Math.floor(Math.random() * 800));
    return "busy";
  }
  if (claim.kind === "not_runnable") return "skipped";
  const { runToken } = claim;
  const readyAt = capture.nextAttemptAt ?? capture.createdAt;
  queueWaitSeconds.observe({ provider: config.name }, Math.max(0, Date.now() - readyAt.getTime()) / 1000);

  const controller = new AbortController();
  const abort = (reason: string) => !controller.signal.aborted && controller.abort(reason);
  const onShutdown = () => abort("shutdown");
  if (options.shutdownSignal.aborted) onShutdown();
  options.shutdownSignal.addEventListener("abort", onShutdown, { once: true });
  const timeout = setTimeout(() => abort("timeout"), config.timeoutMs);
  const unwatch = captureWatch.register(captureId, { runToken, onCancel: () => abort("cancelled"), onLost: () => abort("lease_lost") });
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  try {
    const adapter = adapterFor(config.adapter);
    if (!adapter?.configured()) {
      throw new ProviderError(`Provider ${config.name} (${config.adapter}) is not configured on this server`, { retryClass: "permanent", reason: "not_configured" });
    }
    const response = await adapter.call({
      prompt: capture.prompt.text,
      model: capture.model,
      searchMode: capture.searchMode,
      country: capture.prompt.country,
      language: capture.prompt.language,
      signal: controller.signal,
      onText: (delta) => captureWatch.appendText(captureId, delta),
      settings: (config.settings ?? {}) as Record<string, unknown>,
      subject: { brand: { name: capture.brand.name, domains: capture.brand.domains }, competitors: capture.brand.competitors },
      seed: `${captureId}:${claim.attemptNumber}`,
    });
    if (!response.text.trim()) {
      throw new ProviderError("The provider returned an empty answer", { retryClass: "transient", reason: "empty_answer", requestId: response.requestId });
    }
    const analysis = analyzeAnswer({ answer: response.text, brand: capture.brand, competitors: capture.brand.competitors, sources: response.sources });
    const latencyMs = elapsed();
    await recordCall(config, "success", latencyMs, probeToken);
    await recordSuccess(captureId, runToken, response, {
      costMicros: costOf(response.usage, config),
      latencyMs,
      citations: analysis.citations,
      mentions: mentionRows(analysis, capture.brandId, capture.brand.competitors.map((c) => c.id)),
    });
    executionSeconds.observe({ provider: config.name, outcome: "succeeded" }, latencyMs / 1000);
    return "succeeded";
  } catch (error) {
    if (error instanceof FencedOutError) return "fenced";
    const partialText = captureWatch.partialText(captureId) || (error as { partialText?: string }).partialText || "";
    const estimate = costOf(estimateUsage(capture.prompt.text, capture.searchMode), config);
    const latencyMs = elapsed();
    await recordCall(config, breakerOutcome(error), latencyMs, probeToken);
    const record = await failureRecord(error, { captureId, partialText, estimate, latencyMs, maxAttempts: capture.maxAttempts, unknownRetries: config.unknownRetries });
    if (!record) return "fenced";
    try {
      await recordFailure(captureId, runToken, record);
    } catch (writeError) {
      if (writeError instanceof FencedOutError) return "fenced";
      throw writeError;
    }
    executionSeconds.observe({ provider: config.name, outcome: record.outcome }, record.latencyMs / 1000);
    log(`capture ${captureId} attempt ${claim.attemptNumber}: ${record.outcome} ${record.reason ?? ""} -> ${record.capture.status}`);
    return record.capture.status === "retry_wait" ? "retry" : record.capture.status === "queued" ? "requeued" : record.capture.status;
  } finally {
    clearTimeout(timeout);
    options.shutdownSignal.removeEventListener("abort", onShutdown);
    await unwatch();
  }
}

/** What a failed call tells the breaker: provider trouble counts, our aborts and bad requests do not. */
function breakerOutcome(error: unknown): CallOutcome {
  if (error instanceof CallAbortedError) return error.abortReason === "timeout" ? "failure" : "ignored";
  if (error instanceof ProviderError) return error.retryClass === "permanent" ? "ignored" : "failure";
  return "failure";
}

async function failureRecord(
  error: unknown,
  ctx: { captureId: string; partialText: string; estimate: number; latencyMs: number; maxAttempts: number; unknownRetries: number },
): Promise<FailureRecord | null> {
  const base = { latencyMs: ctx.latencyMs, partialText: ctx.partialText || undefined };

  if (error instanceof CallAbortedError && error.abortReason === "lease_lost") return null; // another run owns it now
  if (error instanceof CallAbortedError && error.abortReason === "cancelled") {
    // Two facts (DESIGN.md "Cancellation"): the user cancelled the capture, and the call was cut
    // off mid-flight, so whether the provider billed it is unknown.
    return {
      ...base,
      outcome: "cancelled",
      reason: "cancelled_by_user",
      costMicros: ctx.estimate,
      costIsEstimate: true,
      capture: { status: "cancelled", lastError: "Cancelled by user" },
      events: [{ kind: "attempt_aborted", data: { reason: "cancelled_by_user", billing: "unknown" } }],
    };
  }
  if (error instanceof CallAbortedError && error.abortReason === "shutdown") {
    return { ...base, outcome: "cancelled", reason: "shutdown", costMicros: ctx.estimate, costIsEstimate: true, capture: { status: "queued" } };
  }

  const failure =
    error instanceof ProviderError
      ? error
      : error instanceof CallAbortedError // timeout: the request was sent and may have been billed
        ? new ProviderError("The provider did not answer in time", { retryClass: "unknown", reason: "timeout" })
        : new ProviderError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, { retryClass: "unknown", reason: "unexpected_error" });
  const unknown = failure.retryClass === "unknown";
  const spent = await spentAttempts(ctx.captureId);
  const decision = decideAfterFailure({
    retryClass: failure.retryClass,
    reason: failure.message,
    spent: spent.spent + 1,
    unknownSpent: spent.unknownSpent + (unknown ? 1 : 0),
    maxAttempts: ctx.maxAttempts,
    unknownRetries: ctx.unknownRetries,
    retryAfterMs: failure.retryAfterMs,
    baseMs: env().BEACON_RETRY_BASE_MS,
  });
  return {
    ...base,
    outcome: unknown ? "unknown" : "failed",
    reason: failure.reason,
    errorClass: failure.retryClass,
    httpStatus: failure.httpStatus,
    providerRequestId: failure.requestId,
    costMicros: unknown ? ctx.estimate : 0,
    costIsEstimate: unknown,
    capture:
      decision.next === "retry"
        ? { status: "retry_wait", runAt: new Date(Date.now() + decision.delayMs), lastError: failure.message }
        : { status: "failed", lastError: decision.reason },
  };
}
