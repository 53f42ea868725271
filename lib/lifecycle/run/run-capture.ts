import "server-only";
import { randomUUID } from "node:crypto";
import { analyzeAnswer, answerCitations, type AnalysisResult } from "@/lib/analysis/analyze";
import { candidateRows, mentionRows } from "@/lib/analysis/rows";
import { costOf, worstCaseCost } from "@/lib/billing/money";
import { acquirePermission, countedAs, openIfOverThreshold, recordCall, releaseProbe, type BreakerGlance, type CallOutcome } from "@/lib/breaker/breaker";
import { activeRuns } from "@/lib/captures/active-runs";
import { claimCapture, claimedAttempt } from "@/lib/lifecycle/claim";
import { pausePoint } from "@/lib/db/pause-points";
import { breakerOutcome, failureOf } from "@/lib/lifecycle/run/failure";
import { attemptClosure, failCapture, succeedCapture, withoutAnalysis, withoutMentions, type Success, type WriteOutcome } from "@/lib/lifecycle/results";
import { postponeCapture } from "@/lib/lifecycle/waiting";
import { isWaiting } from "@/lib/captures/states";
import { captureWatch } from "@/lib/lifecycle/run/watch";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { isPermanentDatabaseError, sqlState } from "@/lib/db/sqlstate";
import type { Capture, Prompt, ProviderConnection } from "@/lib/generated/prisma/client";
import { lastLine } from "@/lib/errors";
import { executionSeconds, queueWaitSeconds } from "@/lib/jobs/worker-metrics";
import { abortReasonOf, CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor, notConfiguredReason } from "@/lib/providers/registry";
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
  /** What an operator should see: a run given up, a result that could not be written. */
  warn?: (line: string) => void;
};

type Competitor = { id: string; name: string; aliases: string[]; caseSensitiveAliases: string[]; domains: string[] };

/** What a run needs of its capture: the capture, its prompt, connection, provider name, brand and breaker. */
export type LoadedCapture = Pick<Capture, "id" | "status" | "cancelRequestedAt" | "model" | "searchMode" | "nextAttemptAt" | "createdAt" | "brandId" | "maxAttempts"> & {
  /** The question as its check asked it (its prompt version), not the prompt's wording now. */
  prompt: Pick<Prompt, "text" | "country" | "city" | "language">;
  connection: Omit<ProviderConnection, "createdAt" | "updatedAt">;
  /** The connection's "updatedAt" in epoch milliseconds: its claim is refused (`stale`) when an edit committed since. */
  connectionVersion: bigint;
  providerConfig: { name: string };
  /** With the analysis version these inputs are (brands."analysisVersion", read with them). */
  brand: { name: string; aliases: string[]; caseSensitiveAliases: string[]; domains: string[]; analysisVersion: number; competitors: Competitor[] };
  /** Its connection's breaker for its model, as read with it (null: no row yet). */
  breaker: BreakerGlance | null;
};

/**
 * The capture with what the run needs, in one statement (a capture is loaded once per try, and
 * each round trip is the worker's time; the ORM's nested read took six).
 */
async function loadCapture(captureId: string): Promise<LoadedCapture | null> {
  const [row] = await db().$queryRaw<LoadedCapture[]>`
    SELECT c.id, c.status, c."cancelRequestedAt", c.model, c."searchMode", c."nextAttemptAt", c."createdAt", c."brandId", c."maxAttempts",
           json_build_object('text', p.text, 'country', p.country, 'city', p.city, 'language', p.language) AS prompt,
           to_jsonb(pc) - 'createdAt' - 'updatedAt' AS connection, (extract(epoch FROM pc."updatedAt") * 1000)::bigint AS "connectionVersion",
           json_build_object('name', cfg.name) AS "providerConfig",
           json_build_object(
             'name', b.name, 'aliases', b.aliases, 'caseSensitiveAliases', b."caseSensitiveAliases", 'domains', b.domains, 'analysisVersion', b."analysisVersion",
             'competitors', coalesce((
               SELECT json_agg(json_build_object('id', k.id, 'name', k.name, 'aliases', k.aliases, 'caseSensitiveAliases', k."caseSensitiveAliases", 'domains', k.domains)
                               ORDER BY k."createdAt", k.id)
               FROM competitors k WHERE k."brandId" = b.id), '[]'::json)
           ) AS brand,
           CASE WHEN bs.status IS NOT NULL THEN json_build_object('status', bs.status, 'forcedStatus', bs."forcedStatus") END AS breaker
    FROM captures c
    JOIN prompt_versions p ON p.id = c."promptVersionId" -- the wording its check asked, whatever the prompt says now
    JOIN provider_connections pc ON pc.id = c."connectionId"
    JOIN provider_configs cfg ON cfg.id = c."providerConfigId"
    JOIN brands b ON b.id = c."brandId"
    LEFT JOIN breaker_states bs ON bs."connectionId" = c."connectionId" AND bs.model = c.model
    WHERE c.id = ${captureId}::uuid`;
  return row ?? null;
}


/** The connection the capture runs on, keyed for its breaker by the capture's model. */
const connectionOf = (capture: LoadedCapture) => ({ ...capture.connection, connectionId: capture.connection.id, model: capture.model, version: capture.connectionVersion });

/**
 * One graphile-worker job = one try at a capture (DESIGN.md "How work flows", step 3). The
 * capture row is the source of truth: a job for a capture that is not waiting does nothing, so
 * duplicate or stale jobs are harmless. Every status change is a lifecycle transition
 * (lib/lifecycle); this function decides which one, and calls the provider.
 */
export async function runCapture(captureId: string, options: RunCaptureOptions): Promise<RunOutcome> {
  // An operator's edit of the connection between the read and the claim: read it again (each
  // round needs another edit to have committed meanwhile).
  for (;;) {
    const outcome = await readAndRun(captureId, options);
    if (outcome !== "stale") return outcome;
  }
}

/** One read of the capture and its connection, and a run with them; "stale" when the connection was edited before the claim. */
async function readAndRun(captureId: string, options: RunCaptureOptions): Promise<RunOutcome | "stale"> {
  const capture = await loadCapture(captureId);
  await pausePoint("run:loaded", { captureId });
  // A waiting capture with a cancel request cannot exist; if it does, the repair pass ends it.
  if (!capture || !isWaiting(capture.status) || capture.cancelRequestedAt) return "skipped";
  const config = connectionOf(capture);

  // Breaker open: no call and no attempt; the capture waits until the breaker may half-open.
  const permission = await acquirePermission(config, capture.breaker);
  if (!permission.allowed) {
    await postponeCapture(captureId, { waitingFor: "breaker", delayMs: permission.retryInMs });
    return "postponed";
  }
  const { probeToken } = permission;
  const limits = { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls };
  const runToken = randomUUID();
  const worstCaseMicros = worstCaseCost(capture.prompt.text, capture.searchMode, limits, config);
  activeRuns.add(runToken);
  try {
    const claim = await claimCapture({
      captureId,
      connection: config,
      workerId: options.workerId,
      runToken,
      probeToken,
      worstCaseMicros,
    }).catch(async (error: unknown) => {
      // The connection may have died before the claim committed on the server, or after: then the
      // run is ours after all. Find out (the database may take a while to come back) before
      // letting the token go.
      const attempt = await untilAnswered(() => claimedAttempt(captureId, runToken));
      if (attempt !== "no answer" && attempt && !attempt.outcome) return { kind: "claimed", attemptNumber: attempt.number } as const;
      if (attempt === "no answer") options.warn?.(`capture ${captureId}: the claim failed (${lastLine(error)}) and whether it committed could not be read; run ${runToken} given up`);
      if (probeToken) await releaseProbe(config, probeToken).catch(() => {});
      throw error;
    });
    if (claim.kind !== "claimed" && probeToken) await releaseProbe(config, probeToken);
    switch (claim.kind) {
      case "breaker_open":
        await postponeCapture(captureId, { waitingFor: "breaker", delayMs: claim.delayMs });
        return "postponed";
      case "busy": // postponed until a slot frees (the claim did it)
        return "busy";
      case "waiting_for_budget":
        return "waiting_for_budget";
      case "refused": // the kill switches: the claim failed it, with the reason, and called nothing
        options.log?.(`capture ${captureId}: refused (${claim.reason})`);
        return "failed";
      case "not_runnable":
        return "skipped";
      case "stale":
        return "stale";
    }
    const readyAt = capture.nextAttemptAt ?? capture.createdAt;
    queueWaitSeconds.observe({ provider: capture.providerConfig.name }, Math.max(0, Date.now() - readyAt.getTime()) / 1000);
    return await runAttempt(capture, { runToken, probeToken, attemptNumber: claim.attemptNumber, limits, worstCaseMicros }, options).catch((error: unknown) => {
      options.warn?.(`capture ${captureId}: run ${runToken} failed (${lastLine(error)}); given up`);
      throw error;
    });
  } finally {
    activeRuns.delete(runToken);
  }
}

type Run = { runToken: string; probeToken: string | null; attemptNumber: number; limits: { maxOutputTokens: number; maxSearchCalls: number }; worstCaseMicros: number };

/** The provider call of a claimed capture, and the transition that records its result. */
async function runAttempt(capture: LoadedCapture, run: Run, options: RunCaptureOptions): Promise<RunOutcome> {
  const captureId = capture.id;
  const config = connectionOf(capture);
  const log = options.log ?? (() => {});
  const controller = new AbortController();
  const abort = (reason: string) => !controller.signal.aborted && controller.abort(reason);
  const onShutdown = () => abort("shutdown");
  if (options.shutdownSignal.aborted) onShutdown();
  options.shutdownSignal.addEventListener("abort", onShutdown, { once: true });
  // The half-open probe decides for every capture of the provider: it gets a short timeout.
  const timeoutMs = run.probeToken ? Math.min(config.timeoutMs, config.breakerProbeTimeoutMs) : config.timeoutMs;
  // A timeout that comes due while this process was stalled (a long GC pause, a loaded machine)
  // may find the answer already in its socket, unread: each turn of the event loop runs its due
  // timers before it reads sockets. So the timeout aborts only after a turn (setImmediate runs
  // after the reads) in which the call received nothing; an answer the provider has sent, and
  // been paid for, is read and stored.
  let received = 0;
  let grace: NodeJS.Immediate | undefined;
  // When this process first saw its timeout due: an answer sent after it may be lost to the abort.
  let timeoutNoticedAt: Date | undefined;
  const expire = () => {
    timeoutNoticedAt ??= new Date();
    const seen = received;
    grace = setImmediate(() => (received === seen ? abort("timeout") : expire()));
  };
  // The vendor's SDK loads on a worker's first call: before the call is timed. A failed load is
  // tried again, and fails, inside the call, where its error is classified.
  const adapter = adapterFor(config.adapter);
  await adapter?.load?.().catch(() => {});
  const timeout = setTimeout(expire, timeoutMs);
  const watched = captureWatch.register(captureId, { runToken: run.runToken, onCancel: () => abort("cancelled"), onLost: () => abort("lease_lost") });
  const started = performance.now();
  let response: ProviderResponse | null = null;
  let callError: unknown = null;
  try {
    const notConfigured = notConfiguredReason(config.adapter, config.settings);
    if (!adapter || notConfigured) {
      throw new ProviderError(`${config.name} (${config.adapter}) is not configured on this server: ${notConfigured}`, { retryClass: "permanent", reason: "not_configured" });
    }
    // Stopped before the request left (a shutdown that came while the claim waited): not sent, not charged.
    if (controller.signal.aborted) throw new CallAbortedError(abortReasonOf(controller.signal), "", false);
    response = await adapter.call({
      prompt: capture.prompt.text,
      model: capture.model,
      searchMode: capture.searchMode,
      country: capture.prompt.country,
      city: capture.prompt.city,
      language: capture.prompt.language,
      signal: controller.signal,
      onText: (delta) => {
        received++;
        watched.append(delta);
      },
      settings: (config.settings ?? {}) as Record<string, unknown>,
      limits: run.limits,
      subject: { brand: { name: capture.brand.name, aliases: capture.brand.aliases, domains: capture.brand.domains }, competitors: capture.brand.competitors },
      seed: `${captureId}:${run.attemptNumber}`,
    });
    if (!response.noAnswer && !response.text.trim()) {
      throw new ProviderError("The provider returned an empty answer", { retryClass: "transient", reason: "empty_answer", requestId: response.requestId });
    }
  } catch (error) {
    response = null;
    callError = error;
  } finally {
    clearTimeout(timeout);
    clearImmediate(grace);
    options.shutdownSignal.removeEventListener("abort", onShutdown);
  }
  const latencyMs = Math.round(performance.now() - started);
  const partialText = watched.partial() || (callError as { partialText?: string } | null)?.partialText || "";
  await watched.end();

  try {
    await pausePoint("call:after-provider", { captureId });
    // The breaker's bookkeeping must not stand between a paid answer and its record: a success
    // is recorded first (its slot goes to the next capture sooner), and counted by the same
    // statement while the breaker is closed; a probe's success, or one the breaker did not count,
    // goes through recordCall after. A failure is counted before its record (so that its retry
    // meets the breaker it helped open).
    const breakerError = (error: unknown) => log(`breaker: ${(error as Error).message}`);
    const tellBreaker = (outcome: CallOutcome) => recordCall(config, outcome, latencyMs, run.probeToken).catch(breakerError);
    if (response) {
      const count = run.probeToken ? null : { model: capture.model, ...countedAs(config, "success", latencyMs), windowSize: config.breakerWindowSize };
      const result = successOf(capture, response, latencyMs);
      // A permanent error is not retried: the answer is stored with less of its analysis (a
      // re-analysis is queued for it), and if even the answer alone fails the capture fails
      // without a second call (below).
      const write = await persist(
        run.runToken,
        [result, withoutMentions(result), withoutAnalysis(result)].map((stored) => () => succeedCapture(captureId, run.runToken, stored, count)),
        log,
      );
      // The write's reply was lost after this run's own success committed: it succeeded, and its
      // statement counted it in the breaker, or did not (the attempt says which).
      const closure = write !== "abandoned" && "closure" in write ? write.closure : null;
      const ownSuccess = closure?.outcome === "succeeded";
      const counted = write !== "abandoned" && write.kind === "written" ? write.breakerWindow : null;
      if (counted) await openIfOverThreshold(config, counted).catch(breakerError);
      else if (!(ownSuccess && closure.breakerCounted)) await tellBreaker("success");
      if (write === "abandoned") options.warn?.(`capture ${captureId}: the answer of run ${run.runToken} could not be recorded; run given up`);
      executionSeconds.observe({ provider: capture.providerConfig.name, outcome: "succeeded" }, latencyMs / 1000);
      if (write !== "abandoned" && write.kind === "unstorable") return await failUnstorable(capture, run, result, write.error, options);
      return ownSuccess ? "succeeded" : outcomeOf(write);
    }
    await tellBreaker(breakerOutcome(callError));
    if (callError instanceof CallAbortedError && callError.abortReason === "lease_lost") return "fenced"; // another run owns it now
    const write = await persist(run.runToken, [async () => failCapture(captureId, run.runToken, await failureOf(callError, capture, { partialText, latencyMs, limits: run.limits, timeoutNoticedAt }))], log);
    if (write === "abandoned" || write.kind === "unstorable") options.warn?.(`capture ${captureId}: the failure of run ${run.runToken} could not be recorded; run given up`);
    const outcome = callError instanceof CallAbortedError && callError.abortReason !== "timeout" ? "cancelled" : callError instanceof ProviderError && callError.retryClass !== "unknown" ? "failed" : "unknown";
    executionSeconds.observe({ provider: capture.providerConfig.name, outcome }, latencyMs / 1000);
    log(`capture ${captureId} attempt ${run.attemptNumber}: ${(callError as Error)?.message ?? callError} -> ${write === "abandoned" ? write : write.kind === "written" ? write.status : write.kind}`);
    return outcomeOf(write);
  } finally {
    if (run.probeToken) await releaseProbe(config, run.probeToken).catch(() => {});
  }
}

/**
 * A paid answer whose record failed for good, also without its analysis: the capture fails
 * (permanently, so nothing calls the provider again by itself), its attempt charged its cost
 * within the reserved worst case, and an operator is told.
 */
async function failUnstorable(capture: LoadedCapture, run: Run, result: Success, error: unknown, options: RunCaptureOptions): Promise<RunOutcome> {
  const reason = `The answer could not be stored (${sqlState(error) ?? "database error"}: ${lastLine(error).slice(0, 200)})`;
  options.warn?.(`capture ${capture.id}: ${reason}; run ${run.runToken} ends failed, the provider is not called again`);
  const write = await persist(
    run.runToken,
    [
      () =>
        failCapture(capture.id, run.runToken, {
          next: "failed",
          lastError: reason,
          attempt: {
            outcome: "failed",
            reason: "result_not_stored",
            errorClass: "permanent",
            providerRequestId: result.requestId ?? null,
            usage: result.usage,
            costMicros: result.costMicros, // charged up to its reservation (beacon_attempt_charge)
            costIsEstimate: false,
            latencyMs: result.latencyMs,
          },
        }),
    ],
    options.log ?? (() => {}),
  );
  if (write === "abandoned" || write.kind === "unstorable") options.warn?.(`capture ${capture.id}: the failure of run ${run.runToken} could not be recorded either; run given up`);
  return outcomeOf(write);
}

/**
 * The answer, its cost and its analysis. An analysis that throws must not throw a paid answer
 * away, nor its sources: they are kept when they can be read alone (a re-analysis rebuilds the
 * mentions, not what the provider returned).
 */
export function successOf(capture: LoadedCapture, response: ProviderResponse, latencyMs: number): Success {
  let analysis: AnalysisResult = { entities: [], citations: [], candidates: [], truncated: false, language: "en" };
  let analysed = true;
  try {
    // An engine that showed no answer is analysed as an empty one: every tracked name unmentioned.
    analysis = analyzeAnswer({ answer: response.text, brand: capture.brand, competitors: capture.brand.competitors, sources: response.sources, language: capture.prompt.language });
  } catch {
    // Stored without analysis (no version): a re-analysis is queued for it.
    analysed = false;
    try {
      analysis = { ...analysis, citations: answerCitations({ answer: response.text, brand: capture.brand, sources: response.sources }) };
    } catch {
      // Then without them too.
    }
  }
  return {
    // An engine that showed no answer: stored as none (NULL), not as an empty answer.
    text: response.noAnswer ? null : response.text,
    usage: response.usage,
    requestId: response.requestId,
    costMicros: costOf(response.usage, capture.connection),
    latencyMs,
    citations: analysis.citations,
    mentions: mentionRows(analysis, capture.brandId, capture.brand.competitors.map((c) => c.id)),
    candidates: candidateRows(analysis),
    searchQueries: response.searchQueries,
    analysisTruncated: analysis.truncated,
    analysisVersion: analysed ? capture.brand.analysisVersion : null,
  };
}

/**
 * How long a worker keeps trying to learn or record the result of a run while the database
 * fails, before it gives the run up (its token leaves the heartbeat; the sweeper takes over).
 * Longer than a restart or a failover, and than a frozen peer can hold a row lock (its session
 * is ended after 15 s idle in a transaction, lib/db/prisma.ts).
 */
const resultWriteDeadlineMs = () => env().BEACON_RESULT_WRITE_TIMEOUT_SECONDS * 1000;
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** Math.min(attempt, 6))));

/** `read()`, again and again while it throws, until the deadline. */
async function untilAnswered<T>(read: () => Promise<T>): Promise<T | "no answer"> {
  const deadline = Date.now() + resultWriteDeadlineMs();
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch {
      if (Date.now() >= deadline) return "no answer";
      await backoff(attempt);
    }
  }
}

type Persisted<T> =
  | T
  /** The attempt was closed (by this run's write whose reply was lost, or by another). */
  | { kind: "lost"; closure?: Awaited<ReturnType<typeof attemptClosure>> }
  /** Every write failed with a permanent database error. */
  | { kind: "unstorable"; error: unknown }
  | "abandoned";

/**
 * Writes a result, again and again while the database fails (connection reset, failover,
 * timeouts): a paid answer must not be thrown away by a blip. A write that failed may still
 * have committed; a closed attempt means there is nothing left to write. A permanent error
 * (lib/db/sqlstate.ts: an integrity or data error, a refused statement) would fail the same way
 * again: the next of `writes` is tried at once (a smaller record of the same result), and
 * after the last, `unstorable`, never a loop to the deadline.
 */
async function persist<T extends WriteOutcome>(runToken: string, writes: (() => Promise<T>)[], log: (line: string) => void): Promise<Persisted<T>> {
  const deadline = Date.now() + resultWriteDeadlineMs();
  let next = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await writes[next]!();
    } catch (error) {
      const closure = await attemptClosure(runToken).catch(() => null);
      if (closure) return { kind: "lost", closure };
      if (isPermanentDatabaseError(error)) {
        log(`recording the result of run ${runToken} failed for good (${lastLine(error)})`);
        if (++next >= writes.length) return { kind: "unstorable", error };
        continue;
      }
      log(`recording the result of run ${runToken} failed (${lastLine(error)}); trying again`);
      if (Date.now() >= deadline) return "abandoned";
      await backoff(attempt);
    }
  }
}

function outcomeOf(write: Persisted<WriteOutcome>): RunOutcome {
  if (write === "abandoned") return "abandoned";
  if (write.kind === "unstorable") return "abandoned";
  if (write.kind === "lost") return "fenced";
  return { succeeded: "succeeded", retry_wait: "retry", failed: "failed", cancelled: "cancelled", queued: "requeued" }[write.status] as RunOutcome;
}
