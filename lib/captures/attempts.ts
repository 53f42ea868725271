import "server-only";
import { randomUUID } from "node:crypto";
import { refreshCheck } from "@/lib/checks/refresh";
import { db } from "@/lib/db/prisma";
import type { AttemptOutcome, ErrorClass, Prisma } from "@/lib/generated/prisma/client";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";
import type { Citation } from "@/lib/analysis/citations";
import type { MentionRow } from "@/lib/analysis/rows";
import type { ProviderResponse, Usage } from "@/lib/providers/types";

type Tx = Prisma.TransactionClient;

/** Under load a busy check's row is contended; give its transactions room before giving up. */
export const TX_OPTIONS = { timeout: 20_000, maxWait: 15_000 };

/**
 * Runs a result-recording transaction, again if PostgreSQL aborted it as a deadlock victim or a
 * serialization failure: losing a result there would leave the capture running with no job.
 */
async function withRetry<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string; meta?: { code?: string } }).meta?.code ?? (error as { code?: string }).code ?? "";
      const retryable = /40P01|40001|deadlock|could not serialize/i.test(`${code} ${(error as Error).message}`);
      if (!retryable || i >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * i + Math.random() * 50));
    }
  }
}

/** Thrown inside a transaction when the capture no longer carries our run token: write nothing. */
export class FencedOutError extends Error {
  constructor() {
    super("capture was taken over by another run; nothing written");
  }
}

export type ClaimResult =
  | { kind: "claimed"; runToken: string; attemptNumber: number }
  | { kind: "busy" }
  | { kind: "breaker_open"; retryAt: Date }
  | { kind: "not_runnable" };

/**
 * Starts an attempt: takes one of the provider's concurrency slots and moves the capture to
 * `running` with a fresh run token. The slot count is the number of running captures of that
 * provider, read under a per-provider advisory lock, so the cap holds across every worker
 * process; a crashed worker's slots come back when the sweeper recovers its captures.
 */
export async function claimCapture(
  captureId: string,
  provider: { id: string; maxConcurrency: number; breakerOpenSeconds: number },
  workerId: string,
  probeToken: string | null,
): Promise<ClaimResult> {
  const providerConfigId = provider.id;
  const maxConcurrency = provider.maxConcurrency;
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`slot:${providerConfigId}`}, 0))`;
    // The breaker may have opened since this worker was let through: look again, so that no
    // attempt starts while it is open (except the probe, which holds the token).
    const [breaker] = await tx.$queryRaw<{ status: string; forcedStatus: string | null; openUntil: Date | null; probeToken: string | null }[]>`
      SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus", "openUntil", "probeToken"::text AS "probeToken"
      FROM breaker_states WHERE "providerConfigId" = ${providerConfigId}::uuid`;
    const forcedOpen = breaker?.forcedStatus === "open";
    const openNow = breaker && !breaker.forcedStatus && breaker.status !== "closed" && !(probeToken && breaker.probeToken === probeToken);
    if (forcedOpen || openNow) {
      const wait = breaker?.openUntil ? Math.max(1000, breaker.openUntil.getTime() - Date.now()) : provider.breakerOpenSeconds * 1000;
      return { kind: "breaker_open", retryAt: new Date(Date.now() + wait) } as const;
    }
    const [{ running }] = (await tx.$queryRaw<{ running: bigint }[]>`
      SELECT count(*) AS running FROM captures WHERE status = 'running' AND "providerConfigId" = ${providerConfigId}::uuid`) as [{ running: bigint }];
    if (Number(running) >= maxConcurrency) return { kind: "busy" } as const;

    const runToken = randomUUID();
    const claimed = await tx.$queryRaw<{ attemptCount: number; checkId: string; workspaceId: string }[]>`
      UPDATE captures SET status = 'running', "runToken" = ${runToken}::uuid, "attemptCount" = "attemptCount" + 1,
        "startedAt" = coalesce("startedAt", now()), "nextAttemptAt" = NULL, "updatedAt" = now()
      WHERE id = ${captureId}::uuid AND status IN ('queued', 'retry_wait', 'postponed') AND "cancelRequestedAt" IS NULL
      RETURNING "attemptCount", "checkId", "workspaceId"`;
    const capture = claimed[0];
    if (!capture) return { kind: "not_runnable" } as const;
    await tx.attempt.create({
      data: { workspaceId: capture.workspaceId, captureId, number: capture.attemptCount, runToken, workerId },
    });
    await refreshCheck(tx, capture.checkId);
    return { kind: "claimed", runToken, attemptNumber: capture.attemptCount } as const;
  }, TX_OPTIONS);
}

/** Saves the answer so far; false when the run token no longer matches (we were fenced out). */
export async function savePartialAnswer(captureId: string, runToken: string, text: string): Promise<boolean> {
  const updated = await db().$executeRaw`
    UPDATE captures SET "answerText" = ${text}, "answerIsPartial" = true, "answerUpdatedAt" = now()
    WHERE id = ${captureId}::uuid AND "runToken" = ${runToken}::uuid AND status = 'running'`;
  return updated > 0;
}

/** Moves our capture from running to `data.status`, or throws FencedOutError. */
async function fencedUpdate(tx: Tx, captureId: string, runToken: string, data: Prisma.CaptureUpdateManyMutationInput) {
  const { count } = await tx.capture.updateMany({ where: { id: captureId, runToken, status: "running" }, data });
  if (!count) throw new FencedOutError();
  return tx.capture.findUniqueOrThrow({ where: { id: captureId }, select: { checkId: true, workspaceId: true } });
}

type AttemptFacts = {
  outcome: AttemptOutcome;
  reason?: string | null;
  errorClass?: ErrorClass | null;
  httpStatus?: number | null;
  providerRequestId?: string | null;
  usage?: Usage;
  costMicros: number;
  costIsEstimate: boolean;
  latencyMs: number;
};

async function closeAttempt(tx: Tx, runToken: string, facts: AttemptFacts) {
  await tx.attempt.update({
    where: { runToken },
    data: {
      outcome: facts.outcome,
      reason: facts.reason ?? null,
      errorClass: facts.errorClass ?? null,
      httpStatus: facts.httpStatus ?? null,
      providerRequestId: facts.providerRequestId ?? null,
      ...(facts.usage ?? {}),
      costMicros: facts.costMicros,
      costIsEstimate: facts.costIsEstimate,
      latencyMs: facts.latencyMs,
      endedAt: new Date(),
    },
  });
}

export async function recordSuccess(
  captureId: string,
  runToken: string,
  response: ProviderResponse,
  facts: { costMicros: number; latencyMs: number; citations: Citation[]; mentions: MentionRow[] },
): Promise<void> {
  await withRetry(() => db().$transaction(async (tx) => {
    const capture = await fencedUpdate(tx, captureId, runToken, {
      status: "succeeded",
      answerText: response.text,
      answerIsPartial: false,
      answerUpdatedAt: new Date(),
      costMicros: facts.costMicros,
      latencyMs: facts.latencyMs,
      lastError: null,
      lastErrorClass: null,
      finishedAt: new Date(),
      analyzedAt: new Date(),
    });
    await closeAttempt(tx, runToken, {
      outcome: "succeeded",
      usage: response.usage,
      providerRequestId: response.requestId,
      costMicros: facts.costMicros,
      costIsEstimate: false,
      latencyMs: facts.latencyMs,
    });
    // A capture is answered once, but be idempotent anyway.
    await tx.citation.deleteMany({ where: { captureId } });
    await tx.searchQuery.deleteMany({ where: { captureId } });
    await tx.mention.deleteMany({ where: { captureId } });
    await tx.mention.createMany({ data: facts.mentions.map((m) => ({ ...m, workspaceId: capture.workspaceId, captureId })) });
    await tx.citation.createMany({ data: facts.citations.map((c, i) => ({ ...c, workspaceId: capture.workspaceId, captureId, position: i + 1 })) });
    await tx.searchQuery.createMany({ data: response.searchQueries.map((query, i) => ({ workspaceId: capture.workspaceId, captureId, query, position: i + 1 })) });
    await refreshCheck(tx, capture.checkId);
  }, TX_OPTIONS));
}

export type FailureRecord = AttemptFacts & {
  /** Where the capture goes next. */
  capture:
    | { status: "retry_wait"; runAt: Date; lastError: string }
    | { status: "failed"; lastError: string }
    | { status: "cancelled"; lastError: string }
    /** Shutdown: back to the queue at once, to run elsewhere. */
    | { status: "queued" };
  partialText?: string;
  events?: { kind: string; data?: Prisma.InputJsonValue }[];
};

export async function recordFailure(captureId: string, runToken: string, record: FailureRecord): Promise<void> {
  await withRetry(() => db().$transaction(async (tx) => {
    const next = record.capture;
    const capture = await fencedUpdate(tx, captureId, runToken, {
      status: next.status,
      runToken: next.status === "queued" || next.status === "retry_wait" ? null : runToken,
      lastError: "lastError" in next ? next.lastError : undefined,
      lastErrorClass: record.errorClass ?? null,
      nextAttemptAt: next.status === "retry_wait" ? next.runAt : null,
      finishedAt: next.status === "failed" || next.status === "cancelled" ? new Date() : null,
      ...(record.partialText ? { answerText: record.partialText, answerIsPartial: true, answerUpdatedAt: new Date() } : {}),
    });
    await closeAttempt(tx, runToken, record);
    if (next.status === "retry_wait") await enqueueCaptureJobs(tx, { captureIds: [captureId] }, next.runAt);
    if (next.status === "queued") await enqueueCaptureJobs(tx, { captureIds: [captureId] });
    for (const event of record.events ?? []) {
      await tx.event.create({ data: { workspaceId: capture.workspaceId, checkId: capture.checkId, captureId, kind: event.kind, data: event.data } });
    }
    await refreshCheck(tx, capture.checkId);
  }, TX_OPTIONS));
}

/** Attempts that reached the provider and count against maxAttempts. */
export async function spentAttempts(captureId: string): Promise<{ spent: number; unknownSpent: number }> {
  const rows = await db().attempt.groupBy({ by: ["outcome"], where: { captureId, outcome: { in: ["failed", "unknown"] } }, _count: true });
  const count = (o: string) => rows.find((r) => r.outcome === o)?._count ?? 0;
  return { spent: count("failed") + count("unknown"), unknownSpent: count("unknown") };
}
