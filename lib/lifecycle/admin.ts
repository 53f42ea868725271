import "server-only";
import { holdBudget } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/db/pause-points";
import { Effects, applyEffects, guardedUpdate, settleMoved, type Tx } from "@/lib/lifecycle/transition";
import { RETRYABLE_STATUSES, UNFINISHED_STATUSES } from "@/lib/captures/states";
import { Prisma } from "@/lib/generated/prisma/client";
import type { SearchMode } from "@/lib/providers/types";

// Transitions people start (from the UI or the REST API), run inside the caller's transaction
// after it has authorized them (lib/checks/cancel-retry.ts).

export type LifecycleActor = { workspaceId: string; userId: string | null; apiKeyId?: string | null };

const actorFields = (actor: LifecycleActor) => ({ actorUserId: actor.userId, actorApiKeyId: actor.apiKeyId ?? null });

/**
 * What `cancel` sets: waiting captures end now, running ones carry the request to their worker.
 * Each capture's cancel is stamped with when it was asked: now, or `askedAt` (a check's cancel
 * its operation runs later, asked when the page recorded it).
 */
export const CANCEL_SET = (who: string, userId: string | null = null, askedAt: Prisma.Sql = Prisma.sql`now()`) =>
  Prisma.sql`status = CASE WHEN c.status = 'running' THEN c.status ELSE 'cancelled' END,
             "cancelRequestedAt" = coalesce(c."cancelRequestedAt", ${askedAt}, now()), "cancelledById" = coalesce(c."cancelledById", ${userId}),
             "lastError" = CASE WHEN c.status = 'running' THEN c."lastError" ELSE ${who} END,
             "finishedAt" = CASE WHEN c.status = 'running' THEN c."finishedAt" ELSE now() END,
             "nextAttemptAt" = CASE WHEN c.status = 'running' THEN c."nextAttemptAt" END,
             "waitingFor" = CASE WHEN c.status = 'running' THEN c."waitingFor" END`;

/**
 * Transition `cancel`. Cancel is a flag in the database, never an in-memory handle (DESIGN.md
 * "Cancellation"): waiting captures are cancelled here at once; running ones keep running with
 * the flag, and the worker that runs them aborts the call within a second and ends them
 * `cancelled`, keeping the partial answer. A running capture that already carries the flag is
 * left as it is. `checkId` cancels the whole check (and marks it, so it ends `cancelled`).
 */
export async function cancelCaptures(tx: Tx, actor: LifecycleActor, target: { checkId: string; asked: "now" | "before" } | { captureId: string }) {
  const scope = "checkId" in target ? Prisma.sql`"checkId" = ${target.checkId}::uuid` : Prisma.sql`id = ${target.captureId}::uuid`;
  const candidates = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM captures WHERE ${scope} AND "workspaceId" = ${actor.workspaceId}::uuid
      AND status = ANY(${[...UNFINISHED_STATUSES]}::"CaptureStatus"[]) AND (status <> 'running' OR "cancelRequestedAt" IS NULL)
    ORDER BY id FOR UPDATE`;
  await pausePoint("cancel:after-lock", { tx });
  const who = actor.userId ? "Cancelled by user" : "Cancelled through the API";
  // A check's cancel asked before (its operation's job): its captures' cancels date from the check's.
  const askedAt = "checkId" in target && target.asked === "before" ? Prisma.sql`(SELECT k."cancelRequestedAt" FROM checks k WHERE k.id = c."checkId")` : undefined;
  const moved = await guardedUpdate(tx, "cancel", { ids: candidates.map((c) => c.id) }, CANCEL_SET(who, actor.userId, askedAt));
  const effects = new Effects();
  if ("checkId" in target) {
    effects.check(target.checkId, { cancelRequested: target.asked === "now" ? "asked" : "carried" });
    effects.event({ workspaceId: actor.workspaceId, checkId: target.checkId, kind: "check_cancelled", ...actorFields(actor) });
  }
  for (const m of moved) {
    effects.check(m.checkId);
    effects.event({ workspaceId: actor.workspaceId, checkId: m.checkId, captureId: m.id, kind: "capture_cancelled", ...actorFields(actor) });
  }
  await settleMoved(tx, moved, effects);
  await applyEffects(tx, effects);
  return { cancelledNow: moved.filter((m) => m.status === "cancelled").length, aborting: moved.filter((m) => m.status === "running").length };
}

/**
 * Transition `adminRetry` (failed | cancelled -> queued): the captures get a fresh allowance of
 * failed calls (`maxAttempts` = the calls spent so far + the connection's maximum; from
 * `spentAttempts`, not `attemptCount`, which also counts calls a cancel or a shutdown cut off)
 * and a new budget hold (their expected cost, `holds`), taken this month. Only the
 * captures this call moved are held and enqueued: of two retries at once, one wins.
 */
export async function retryCaptures(tx: Tx, actor: LifecycleActor, holds: Map<string, { micros: number; maxAttempts: number }>) {
  const moved = await guardedUpdate(
    tx,
    "adminRetry",
    { ids: [...holds.keys()] },
    Prisma.sql`status = 'queued', "runToken" = NULL, "cancelRequestedAt" = NULL, "cancelledById" = NULL, "lastError" = NULL,
               "lastErrorClass" = NULL, "nextAttemptAt" = NULL, "finishedAt" = NULL, "waitingFor" = NULL`,
  );
  if (!moved.length) return { retried: 0 };
  const ids = moved.map((m) => m.id);
  const effects = new Effects().enqueue(ids);
  for (const m of moved) {
    effects.check(m.checkId, { cancelRequested: false, reopened: true });
    effects.event({ workspaceId: actor.workspaceId, checkId: m.checkId, captureId: m.id, kind: "capture_retried", ...actorFields(actor) });
  }
  await applyEffects(tx, effects);
  // The budget last (the lock order); a hold that does not fit undoes the whole retry.
  const total = moved.reduce((sum, m) => sum + holds.get(m.id)!.micros, 0);
  const period = await holdBudget(tx, actor.workspaceId, total);
  await tx.$executeRaw`
    UPDATE captures c SET "reservedMicros" = v.micros, "reservedPeriod" = ${period}::date, "maxAttempts" = c."spentAttempts" + v."maxAttempts"
    FROM unnest(${ids}::uuid[], ${ids.map((id) => holds.get(id)!.micros)}::bigint[], ${ids.map((id) => holds.get(id)!.maxAttempts)}::int[]) AS v(id, micros, "maxAttempts")
    WHERE c.id = v.id`;
  return { retried: moved.length };
}

const PAID_ANSWER_KEPT = "This capture already has a paid answer, which is kept; it is not asked again.";
const PAID_ANSWER_LOST =
  "This capture's answer was paid for but could not be stored; a retry would pay the provider again. Start a new check for a fresh answer.";

/**
 * Why each of these captures may not be retried (by id; absent: it may), read with the claim's
 * own test so the two cannot disagree:
 * - it already holds a paid answer: a succeeded attempt, or (its attempts since deleted by
 *   retention) the full answer a success stores. A success that arrived after a cancel request
 *   used to end `cancelled` with it (issue 17 defect 6); asking again would pay twice.
 * - its answer was paid for but could not be stored (`paidAnswerLost`, set when an attempt ends
 *   `result_not_stored`, kept when retention deletes that attempt): asking again would pay
 *   twice as well; a new check is the honest way to ask again.
 * - its workspace may no longer call its connection with its model (beacon_access_refusal:
 *   revoked, disabled, off the allowlist); its claim would only fail it.
 */
export async function retryRefusals(tx: Tx, captureIds: string[]): Promise<Map<string, string>> {
  if (!captureIds.length) return new Map();
  const rows = await tx.$queryRaw<{ id: string; reason: string | null }[]>`
    SELECT c.id, ${retryRefusal(Prisma.sql`beacon_access_refusal(c."connectionId", c."workspaceId", c.model)`)} AS reason
    FROM captures c WHERE c.id = ANY(${captureIds}::uuid[])`;
  return new Map(rows.flatMap((r) => (r.reason ? [[r.id, r.reason] as const] : [])));
}

/** retryRefusals' rule over the capture row `c`, given its `access` refusal (beacon_access_refusal's). */
// The succeeded attempts are read by capture alone and tested in the aggregate: a filter on outcome beside
// it lets the planner (on tables not analyzed yet) combine the outcome index, which lists most
// attempts, for every capture; a check's retry asks this of thousands.
const retryRefusal = (access: Prisma.Sql) => Prisma.sql`CASE
    WHEN coalesce((SELECT bool_or(a.outcome = 'succeeded') FROM attempts a WHERE a."captureId" = c.id), false) OR (c."answerText" IS NOT NULL AND NOT c."answerIsPartial")
      THEN ${PAID_ANSWER_KEPT}
    WHEN c."paidAnswerLost" THEN ${PAID_ANSWER_LOST}
    ELSE ${access}
  END`;

/** Captures of a check counted alike for a retry (retryGroups). */
export type RetryGroup = {
  retryable: boolean;
  connectionId: string;
  searchMode: SearchMode;
  promptText: string;
  /** retryRefusals' reason for each of them; null for those a retry runs again (and for those not retryable). */
  reason: string | null;
  captures: number;
};

/**
 * A check's captures in the workspace counted by what a retry's estimate needs, without reading
 * each one: whether they are retryable, their connection, search mode and prompt (what a
 * capture's estimate depends on) and their refusal by retryRefusals' rule, the access part asked
 * once per connection and model rather than once per capture.
 */
export async function retryGroups(tx: Tx, workspaceId: string, checkId: string): Promise<RetryGroup[]> {
  const rows = await tx.$queryRaw<(Omit<RetryGroup, "captures"> & { captures: bigint })[]>`
    WITH access AS MATERIALIZED ( -- asked once per pair, whatever join the planner picks (a nested loop would rescan it per capture)
      SELECT k."connectionId", k.model, beacon_access_refusal(k."connectionId", ${workspaceId}::uuid, k.model) AS refusal
      FROM (SELECT DISTINCT "connectionId", model FROM captures WHERE "checkId" = ${checkId}::uuid AND "workspaceId" = ${workspaceId}::uuid
              AND status = ANY(${[...RETRYABLE_STATUSES]}::"CaptureStatus"[])) k
    ), grouped AS (
      SELECT c.status = ANY(${[...RETRYABLE_STATUSES]}::"CaptureStatus"[]) AS retryable, c."connectionId", c."searchMode", c."promptVersionId",
             CASE WHEN c.status = ANY(${[...RETRYABLE_STATUSES]}::"CaptureStatus"[]) THEN ${retryRefusal(Prisma.sql`a.refusal`)} END AS reason, count(*) AS captures
      FROM captures c LEFT JOIN access a ON a."connectionId" = c."connectionId" AND a.model = c.model
      WHERE c."checkId" = ${checkId}::uuid AND c."workspaceId" = ${workspaceId}::uuid
      GROUP BY 1, 2, 3, 4, 5
    )
    SELECT g.retryable, g."connectionId", g."searchMode", p.text AS "promptText", g.reason, g.captures
    FROM grouped g JOIN prompt_versions p ON p.id = g."promptVersionId"`;
  return rows.map((r) => ({ ...r, captures: Number(r.captures) }));
}
