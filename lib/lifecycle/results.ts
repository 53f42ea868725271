import "server-only";
import type { Citation } from "@/lib/analysis/citations";
import type { CandidateRow, MentionRow } from "@/lib/analysis/rows";
import { TERMINAL_STATUSES, WAITING_STATUSES } from "@/lib/captures/states";
import { pausePoint } from "@/lib/db/pause-points";
import { Effects, WAKE_ON_FREED_MONEY, applyEffects, cancelAware, closeAttempt, guardedUpdate, finishAfter, settleMoved, type AttemptClose } from "@/lib/lifecycle/transition";
import { resultShard } from "@/lib/billing/budget";
import { CAPTURE_JOB_SPEC, REANALYSIS_JOB_SPEC } from "@/lib/jobs/enqueue";
import { db } from "@/lib/db/prisma";
import { inOneStatement, inTransaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Usage } from "@/lib/providers/types";

// What a run writes: the answer so far, then its result. Every write carries the run token; a
// run that lost its capture (swept, cancelled and requeued, taken over) writes nothing.

/** "written": the transition happened. "lost": the capture no longer carries the run token. */
export type WriteOutcome = { kind: "written"; status: "succeeded" | "retry_wait" | "failed" | "cancelled" | "queued" } | { kind: "lost" };

// PostgreSQL text cannot hold NUL; a provider that sends one must not make the answer unstorable.
const storable = (text: string) => text.replaceAll("\u0000", "\uFFFD");

/** Saves the answer so far; false when the run token no longer matches (we were fenced out). */
export async function savePartialAnswer(captureId: string, runToken: string, text: string): Promise<boolean> {
  const updated = await db().$executeRaw`
    UPDATE captures SET "answerText" = ${storable(text)}, "answerIsPartial" = true, "answerUpdatedAt" = now()
    WHERE id = ${captureId}::uuid AND "runToken" = ${runToken}::uuid AND status = 'running'`;
  return updated > 0;
}

export type Success = {
  /** Null: the engine showed no answer for the query (ProviderResponse.noAnswer). */
  text: string | null;
  usage: Usage;
  requestId?: string;
  costMicros: number;
  latencyMs: number;
  citations: Citation[];
  mentions: MentionRow[];
  /** The untracked names the answer presents as options (competitor discovery), stored with the mentions. */
  candidates: CandidateRow[];
  searchQueries: string[];
  /** The answer was longer than the analysis reads (lib/analysis/analyze.ts). */
  analysisTruncated: boolean;
  /**
   * The brand's analysisVersion the mentions were computed with; null when the answer is stored
   * without analysis (none could be made or written), which queues a re-analysis.
   */
  analysisVersion: number | null;
};

/**
 * What is stored when the whole result cannot be (run-capture.ts persist), in the order tried:
 * the answer with what the provider returned beside it (its sources and search queries, which a
 * re-analysis cannot rebuild) but without the mentions, which name tracked entities; then the
 * answer alone. Either is analysed by the re-analysis it queues (analysis version NULL).
 */
export const withoutMentions = (result: Success): Success => ({ ...result, mentions: [], candidates: [], analysisTruncated: false, analysisVersion: null });
export const withoutAnalysis = (result: Success): Success => ({ ...withoutMentions(result), citations: [], searchQueries: [] });

/**
 * The call counted in its breaker by the same statement (while the breaker is closed): how it
 * counts (lib/breaker/breaker.ts countedAs) and the window's size. `breakerWindow` in the outcome
 * is the window as counted, or null when the breaker was not closed (not counted).
 */
export type BreakerCount = { model: string; failed: boolean; slow: boolean; windowSize: number };

/**
 * Transition `succeed` (running -> succeeded): the answer, its analysis and the attempt's cost,
 * charged to the budget (at most the worst case reserved for the call). A cancel request that
 * arrived while the answer was finishing came too late: the answer was paid for, so the capture
 * still ends `succeeded`, analysed, with a note (DESIGN.md's rule, docs/architecture.md).
 */
export async function succeedCapture(
  captureId: string,
  runToken: string,
  result: Success,
  breaker: BreakerCount | null = null,
): Promise<WriteOutcome & { breakerWindow?: boolean[] | null }> {
  // The whole transition is one statement (beacon_succeed, migration
  // 20261205100000_succeed_path), in the lock order of every transition: the capture moved
  // (guarded by its status and run token) with its answer, its attempt closed with its cost, its
  // hold released; then its analysis rows (mentions, untracked candidates), for the entities that exist now (a re-analysis queued
  // when the brand's inputs changed since `analysisVersion`), its slot handed on to a capture
  // waiting for one, the rollups, the ledgers, and the captures waiting for budget woken when
  // money was freed.
  const citations = result.citations.map((c, i) => ({ ...c, url: storable(c.url), title: c.title === undefined || c.title === null ? null : storable(c.title), position: i + 1 }));
  const searchQueries = result.searchQueries.map((query, i) => ({ query: storable(query), position: i + 1 }));
  const moved = await inOneStatement(
    async (client) => {
      const [row] = await client.$queryRaw<{ status: "succeeded"; checkId: string; breakerWindow: boolean[] | null }[]>`
        SELECT * FROM beacon_succeed(${captureId}::uuid, ${runToken}::uuid, ${result.text === null ? null : storable(result.text)}::text, ${result.costMicros}::bigint, ${result.latencyMs}::int,
          ${result.analysisTruncated}, ${JSON.stringify({ ...result.usage, requestId: result.requestId ?? null })}::jsonb,
          ${JSON.stringify(result.mentions)}::jsonb, ${JSON.stringify(citations)}::jsonb, ${JSON.stringify(searchQueries)}::jsonb,
          ${resultShard()}::smallint, ${WAKE_ON_FREED_MONEY}::int, ${CAPTURE_JOB_SPEC}::jsonb, ${breaker ? JSON.stringify(breaker) : null}::jsonb,
          ${result.analysisVersion}::int, ${REANALYSIS_JOB_SPEC}::jsonb, ${JSON.stringify(result.candidates)}::jsonb)`;
      return row ?? null;
    },
    { beforeCommit: "succeed:before-commit", context: { captureId }, pauseWhen: (row) => row !== null, after: (row) => finishAfter(row?.checkId ?? null) },
  );
  if (!moved) return { kind: "lost" };
  await pausePoint("succeed:after-commit", { captureId });
  return { kind: "written", status: moved.status, ...(breaker ? { breakerWindow: moved.breakerWindow } : {}) };
}

export type Failure = {
  /**
   * Where the capture goes: `retry_wait` (after `delayMs`), `failed`, `cancelled` (the user's
   * abort), or `queued` (shutdown: run again elsewhere at once). A cancel request turns any of
   * them into `cancelled`.
   */
  next: "retry_wait" | "failed" | "cancelled" | "queued";
  delayMs?: number;
  lastError?: string;
  attempt: AttemptClose;
  partialText?: string;
  events?: { kind: string; data?: Prisma.InputJsonValue }[];
};

/** Transition `fail` (running -> retry_wait | failed | cancelled | queued). */
export async function failCapture(captureId: string, runToken: string, failure: Failure): Promise<WriteOutcome> {
  return inTransaction(async (tx) => {
    const next = cancelAware(failure.next);
    const partial = failure.partialText ? storable(failure.partialText) : null;
    const [moved] = await guardedUpdate(
      tx,
      "fail",
      { ids: [captureId], runToken },
      Prisma.sql`status = ${next},
                 "runToken" = CASE WHEN ${next} = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[]) THEN NULL ELSE c."runToken" END,
                 "nextAttemptAt" = CASE WHEN ${next} = 'retry_wait' THEN now() + make_interval(secs => ${(failure.delayMs ?? 0) / 1000}::float8) END,
                 "lastError" = CASE WHEN ${next} = 'cancelled' THEN coalesce(${failure.next === "cancelled" ? (failure.lastError ?? null) : null}, 'Cancelled by user') ELSE ${failure.lastError ?? null} END,
                 "lastErrorClass" = ${failure.attempt.errorClass ?? null}::"ErrorClass",
                 "finishedAt" = CASE WHEN ${next} = ANY(${[...TERMINAL_STATUSES]}::"CaptureStatus"[]) THEN now() END,
                 "answerText" = coalesce(${partial}, c."answerText"),
                 "answerIsPartial" = CASE WHEN ${partial}::text IS NOT NULL THEN true ELSE c."answerIsPartial" END,
                 "answerUpdatedAt" = CASE WHEN ${partial}::text IS NOT NULL THEN now() ELSE c."answerUpdatedAt" END`,
    );
    if (!moved) return { kind: "lost" } as const;
    const effects = new Effects();
    const closed = await closeAttempt(tx, runToken, failure.attempt);
    effects.call(closed);
    if (moved.status === "retry_wait") effects.enqueue([captureId], failure.delayMs ?? 0);
    if (moved.status === "queued") effects.enqueue([captureId]);
    for (const event of failure.events ?? []) effects.event({ workspaceId: moved.workspaceId, checkId: moved.checkId, captureId, kind: event.kind, data: event.data });
    await settleMoved(tx, [moved], effects);
    await applyEffects(tx, effects);
    await pausePoint("fail:before-commit", { tx, captureId });
    return { kind: "written", status: moved.status as "retry_wait" | "failed" | "cancelled" | "queued" } as const;
  });
}

/**
 * How an attempt was closed, or null while it is open (or unknown token): its outcome, and
 * whether its success's statement counted it in the breaker. Only `succeedCapture` closes an
 * attempt `succeeded`, so for a run that lost a reply that outcome means its own write committed.
 */
export async function attemptClosure(runToken: string): Promise<{ outcome: string; breakerCounted: boolean } | null> {
  const attempt = await db().attempt.findUnique({ where: { runToken }, select: { outcome: true, breakerCounted: true } });
  return attempt?.outcome ? { outcome: attempt.outcome, breakerCounted: attempt.breakerCounted } : null;
}
