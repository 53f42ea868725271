import "server-only";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { promptSelectionSchema } from "@/lib/checks/schemas";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { UserError } from "@/lib/errors";
import { nextRunAfter } from "@/lib/schedules/next-run";
import { SCHEDULE_FAILED_EVENT } from "@/lib/schedules/schedules";
import type { PromptSelection } from "@/lib/checks/schemas";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A picked selection without its archived prompts; refused when none is left. */
async function livePicks(tx: Prisma.TransactionClient, workspaceId: string, selection: PromptSelection): Promise<PromptSelection> {
  if (selection.mode !== "picked") return selection;
  const live = new Set((await tx.prompt.findMany({ where: { id: { in: selection.promptIds }, workspaceId, deletedAt: null }, select: { id: true } })).map((p) => p.id));
  const promptIds = selection.promptIds.filter((id) => live.has(id));
  if (!promptIds.length) throw new UserError("Every prompt this schedule picked was archived: edit it to pick others.");
  return { mode: "picked", promptIds };
}

export type ScheduleRun =
  | { scheduleId: string; slot: Date; outcome: "created" | "replayed"; checkId: string; nextRunAt: Date }
  | { scheduleId: string; slot: Date; outcome: "failed"; message: string; nextRunAt: Date };

/** One check per schedule and slot, whoever runs it and however often. */
export const scheduleIdempotencyKey = (scheduleId: string, slot: Date) => `schedule:${scheduleId}:${slot.toISOString()}`;

/** Prisma's messages start with a multi-line preamble; the last line says what happened. */
const lastLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).trim().split("\n").at(-1) ?? "";

/** A schedule's run, claim included: createCheck has up to 60 s of its own, and the claim must outlive it. */
const RUN_TIMEOUT_MS = 120_000;
/**
 * How long after its slot a run that failed for a reason of the database's or ours (no
 * connection in time, a deadlock past its retries, a bug), not the schedule's, is tried again:
 * each minute's pass, with the slot's idempotency key. Then the schedule moves on.
 */
export const SLOT_RETRY_MS = 60 * 60_000;

/** Bounds one call's work; schedules still due after that wait for the next minute's run. */
const MAX_RUNS_PER_CALL = 500;

/**
 * Runs every schedule that is due now, each at most once, and returns what happened. Safe to
 * call from any number of workers at once: see runNextDue.
 */
export async function runDueSchedules(): Promise<ScheduleRun[]> {
  const runs: ScheduleRun[] = [];
  const seen: string[] = [];
  while (runs.length < MAX_RUNS_PER_CALL) {
    const run = await runNextDue(seen);
    if (!run) break;
    seen.push(run.scheduleId);
    runs.push(run);
  }
  return runs;
}

/**
 * Claims one due schedule and runs it. The claim is a row lock held for the whole run: other
 * callers skip the row (SKIP LOCKED) and take the next due one, or find none. The lock is
 * FOR NO KEY UPDATE, not FOR UPDATE: createCheck inserts the check in a transaction of its own,
 * and the foreign key from checks.scheduleId takes a KEY SHARE lock on this row, which FOR UPDATE
 * would block until this transaction ends, which waits for createCheck: a deadlock Postgres
 * cannot see because it goes through the application.
 *
 * createCheck commits before this transaction does. Should this one then fail (a crash, a lost
 * connection), the schedule is still due and the next caller retries the same slot with the same
 * idempotency key: it gets the check that exists instead of a second one.
 */
async function runNextDue(skip: string[]): Promise<ScheduleRun | null> {
  return transaction(
    async (tx) => {
      const [claimed] = await tx.$queryRaw<{ id: string; now: Date }[]>`
        SELECT id, now() AS now FROM schedules
        WHERE paused = false AND "nextRunAt" <= now() AND NOT (id = ANY(${skip}::uuid[]))
        ORDER BY "nextRunAt", id
        LIMIT 1
        FOR NO KEY UPDATE SKIP LOCKED`;
      if (!claimed) return null;
      // This transaction is idle while createCheck runs on another connection: the session's
      // 15 s idle limit (lib/db/prisma.ts) would end it, and the claim, before the time it is given.
      await tx.$executeRawUnsafe(`SET LOCAL idle_in_transaction_session_timeout = ${RUN_TIMEOUT_MS}`);
      const schedule = await tx.schedule.findUniqueOrThrow({ where: { id: claimed.id } });
      await pausePoint("schedule:claimed", { tx });
      const slot = schedule.nextRunAt;
      // Missed slots (downtime, a long pause in the cron) collapse into this one run.
      const nextRunAt = nextRunAfter(schedule, claimed.now);

      let run: ScheduleRun;
      try {
        const stored = promptSelectionSchema.safeParse(schedule.promptSelection);
        if (!stored.success) throw new UserError("This schedule has no prompts left: edit it to pick some.");
        const request = {
          brandId: schedule.brandId,
          prompts: stored.data,
          providers: { ids: schedule.providerConfigIds },
          samples: schedule.samples,
        };
        const { checkId, replayed } = await createCheck({
          workspaceId: schedule.workspaceId,
          idempotencyKey: scheduleIdempotencyKey(schedule.id, slot),
          requestHash: hashRequest({ scheduleId: schedule.id, ...request }),
          ...request,
          // The prompts it picked that are still live: one archived while the schedule was being
          // saved (archivePrompts did not see it yet) is left out here rather than failing the run.
          prompts: await livePicks(tx, schedule.workspaceId, stored.data),
          scheduleId: schedule.id,
        });
        run = { scheduleId: schedule.id, slot, outcome: replayed ? "replayed" : "created", checkId, nextRunAt };
      } catch (error) {
        // Over budget, a provider disabled, prompts deleted…: the run is recorded as failed and
        // the schedule moves on, so one broken schedule never holds up the others. Any other
        // error keeps the slot for the next minute's pass, within SLOT_RETRY_MS of it.
        const retried = !(error instanceof UserError) && claimed.now.getTime() - slot.getTime() < SLOT_RETRY_MS;
        const message = error instanceof UserError ? error.message : `Unexpected error: ${lastLine(error)}${retried ? " (tried again next minute)" : ""}`;
        const code = error instanceof UserError ? error.code : "internal";
        await tx.event.create({
          data: { workspaceId: schedule.workspaceId, kind: SCHEDULE_FAILED_EVENT, data: { scheduleId: schedule.id, slot: slot.toISOString(), code, message } },
        });
        run = { scheduleId: schedule.id, slot, outcome: "failed", message, nextRunAt: retried ? slot : nextRunAt };
      }
      await tx.schedule.update({ where: { id: schedule.id }, data: { lastRunAt: claimed.now, nextRunAt: run.nextRunAt } });
      return run;
    },
    { timeoutMs: RUN_TIMEOUT_MS },
  );
}
