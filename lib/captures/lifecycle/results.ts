import "server-only";
import type { Citation } from "@/lib/analysis/citations";
import type { MentionRow } from "@/lib/analysis/rows";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import {
  Effects,
  applyEffects,
  cancelAware,
  closeAttempt,
  guardedUpdate,
  inTransaction,
  settleMoved,
  type AttemptClose,
} from "@/lib/captures/lifecycle/transition";
import { db } from "@/lib/db/prisma";
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
  text: string;
  usage: Usage;
  requestId?: string;
  costMicros: number;
  latencyMs: number;
  citations: Citation[];
  mentions: MentionRow[];
  searchQueries: string[];
  /** The answer was longer than the analysis reads (lib/analysis/analyze.ts). */
  analysisTruncated: boolean;
};

/**
 * Transition `succeed` (running -> succeeded): the answer, its analysis and the attempt's actual
 * cost, charged to the budget. A capture whose cancel request arrived while the answer was
 * finishing ends `cancelled`, with the full answer kept (it was paid for).
 */
export async function succeedCapture(captureId: string, runToken: string, result: Success): Promise<WriteOutcome> {
  return inTransaction(async (tx) => {
    const [moved] = await guardedUpdate(
      tx,
      "succeed",
      { ids: [captureId], runToken },
      Prisma.sql`status = ${cancelAware("succeeded")}, "answerText" = ${storable(result.text)}, "answerIsPartial" = false, "answerUpdatedAt" = now(),
                 "costMicros" = ${result.costMicros}, "latencyMs" = ${result.latencyMs}::int,
                 "lastError" = CASE WHEN c."cancelRequestedAt" IS NOT NULL THEN 'Cancelled by user (the answer had arrived; kept in full)' END,
                 "lastErrorClass" = NULL, "finishedAt" = now(), "analyzedAt" = now(), "analysisTruncated" = ${result.analysisTruncated}`,
    );
    if (!moved) return { kind: "lost" } as const;
    const effects = new Effects();
    const closed = await closeAttempt(tx, runToken, {
      outcome: "succeeded",
      usage: result.usage,
      providerRequestId: result.requestId,
      costMicros: result.costMicros,
      costIsEstimate: false,
      latencyMs: result.latencyMs,
    });
    effects.call(closed);
    if (moved.status === "succeeded") {
      const ws = moved.workspaceId;
      // Each an insert of many rows, left out when there are none (a round trip saved).
      if (result.mentions.length) await tx.mention.createMany({ data: result.mentions.map((m) => ({ ...m, workspaceId: ws, captureId })) });
      if (result.citations.length) {
        await tx.citation.createMany({
          data: result.citations.map((c, i) => ({ ...c, url: storable(c.url), title: c.title === undefined || c.title === null ? c.title : storable(c.title), workspaceId: ws, captureId, position: i + 1 })),
        });
      }
      if (result.searchQueries.length) {
        await tx.searchQuery.createMany({ data: result.searchQueries.map((query, i) => ({ workspaceId: ws, captureId, query: storable(query), position: i + 1 })) });
      }
      effects.rollups.push(captureId);
    }
    await settleMoved(tx, [moved], effects);
    await applyEffects(tx, effects);
    await pausePoint("succeed:before-commit", { tx, captureId });
    return { kind: "written", status: moved.status as "succeeded" | "cancelled" } as const;
  });
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
                 "runToken" = CASE WHEN ${next} IN ('retry_wait', 'queued') THEN NULL ELSE c."runToken" END,
                 "nextAttemptAt" = CASE WHEN ${next} = 'retry_wait' THEN now() + make_interval(secs => ${(failure.delayMs ?? 0) / 1000}::float8) END,
                 "lastError" = CASE WHEN ${next} = 'cancelled' THEN coalesce(${failure.next === "cancelled" ? (failure.lastError ?? null) : null}, 'Cancelled by user') ELSE ${failure.lastError ?? null} END,
                 "lastErrorClass" = ${failure.attempt.errorClass ?? null}::"ErrorClass",
                 "finishedAt" = CASE WHEN ${next} IN ('failed', 'cancelled') THEN now() END,
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

/** The outcome an attempt was closed with, or null while it is open (or unknown token). */
export async function attemptOutcome(runToken: string): Promise<string | null> {
  const attempt = await db().attempt.findUnique({ where: { runToken }, select: { outcome: true } });
  return attempt?.outcome ?? null;
}
