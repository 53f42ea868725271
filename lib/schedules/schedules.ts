import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { MAX_CAPTURES_PER_CHECK, MAX_PROMPTS_PER_CHECK, promptSelectionSchema, type PromptSelection } from "@/lib/checks/schemas";
import { assertStillCan } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { canManageSchedules } from "@/lib/permissions/permissions";
import { databaseNow } from "@/lib/db/clock";
import { NotFoundError, UserError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { deletePrompts } from "@/lib/prompts/prompts";
import { nextRunAfter } from "@/lib/schedules/next-run";
import type { ParsedScheduleInput } from "@/lib/schedules/schemas";
import { isUniqueViolation } from "@/lib/db/sqlstate";

/** The event a run that could not create its check leaves behind (lib/schedules/run-due.ts). */
export const SCHEDULE_FAILED_EVENT = "schedule_failed";

const notFound = () => new NotFoundError("That schedule does not exist in this workspace.");

/**
 * Prompts being archived (in the caller's transaction, before it locks them: a schedule's run
 * holds its row while its check reads the prompts): the schedules that picked them stop asking
 * them, and go on asking the rest; one left with none is paused, with an entry in its history
 * saying why (the Schedules page shows it). Before, every later run of such a schedule failed
 * on the archived prompt and asked none of the others, and its edit form could not untick it.
 */
/** Archives prompts (lib/prompts deletePrompts) and takes them out of the schedules that picked them, in one transaction. */
export function archivePrompts(workspaceId: string, promptIds: string[]) {
  return deletePrompts(workspaceId, promptIds, (tx) => dropArchivedPrompts(tx, workspaceId, promptIds));
}

async function dropArchivedPrompts(tx: Prisma.TransactionClient, workspaceId: string, promptIds: string[]): Promise<void> {
  const changed = await tx.$queryRaw<{ id: string; emptied: boolean }[]>`
    UPDATE schedules s SET "promptSelection" = jsonb_build_object('mode', 'picked', 'promptIds', kept.ids),
      paused = s.paused OR jsonb_array_length(kept.ids) = 0, "editVersion" = s."editVersion" + 1, "updatedAt" = now()
    FROM (SELECT x.id, beacon_jsonb_without(x."promptSelection"->'promptIds', ${promptIds}::text[]) AS ids
          FROM schedules x WHERE x."workspaceId" = ${workspaceId}::uuid AND x."promptSelection"->>'mode' = 'picked'
            AND x."promptSelection"->'promptIds' ?| ${promptIds}::text[]
          ORDER BY x.id FOR NO KEY UPDATE OF x) kept
    WHERE s.id = kept.id
    RETURNING s.id, jsonb_array_length(kept.ids) = 0 AS emptied`;
  const emptied = changed.filter((s) => s.emptied);
  if (emptied.length) {
    await tx.event.createMany({
      data: emptied.map((s) => ({ workspaceId, kind: SCHEDULE_FAILED_EVENT, data: { scheduleId: s.id, code: "prompts_archived", message: "Paused: every prompt it asked was archived. Edit it to pick prompts, then resume it." } })),
    });
  }
}

/**
 * Everything a schedule names must belong to the workspace now; the check it starts later is
 * validated again by createCheck, and a run that is refused then is recorded, not retried.
 */
async function validateReferences(workspaceId: string, input: ParsedScheduleInput) {
  const brand = await db().brand.findFirst({ where: { id: input.brandId, workspaceId }, select: { id: true } });
  if (!brand) throw new NotFoundError("That brand does not exist in this workspace.", { field: "brandId" });

  const live: Prisma.PromptWhereInput = { workspaceId, deletedAt: null };
  const selection = input.prompts;
  let promptCount: number;
  if (selection.mode === "picked") {
    const ids = [...new Set(selection.promptIds)];
    promptCount = await db().prompt.count({ where: { ...live, id: { in: ids } } });
    if (promptCount !== ids.length) {
      throw new NotFoundError(`${ids.length - promptCount} of the chosen prompts do not exist in this workspace.`, { field: "prompts.promptIds" });
    }
  } else if (selection.mode === "tag") {
    promptCount = await db().prompt.count({ where: { ...live, tags: { has: selection.tag } } });
    if (!promptCount) throw new UserError(`No prompt has the tag "${selection.tag}".`, { field: "prompts.tag" });
  } else {
    promptCount = await db().prompt.count({ where: live });
    if (!promptCount) throw new UserError("Add prompts before scheduling checks.", { field: "prompts" });
  }
  if (promptCount > MAX_PROMPTS_PER_CHECK) throw new UserError(`A check can ask at most ${MAX_PROMPTS_PER_CHECK} prompts (this selection has ${promptCount}).`, { field: "prompts" });

  const providers = await db().providerConfig.findMany({ where: { workspaceId, id: { in: input.providerConfigIds } }, select: { id: true, name: true, enabled: true } });
  if (providers.length !== input.providerConfigIds.length) throw new NotFoundError("Some of the chosen providers do not exist in this workspace.", { field: "providerConfigIds" });
  const disabled = providers.filter((p) => !p.enabled);
  if (disabled.length) throw new UserError(`Provider ${disabled.map((p) => p.name).join(", ")} is disabled.`, { field: "providerConfigIds" });

  const captures = promptCount * providers.length * input.samples;
  if (captures > MAX_CAPTURES_PER_CHECK) {
    throw new UserError(`That is ${captures} captures per run; a check can have at most ${MAX_CAPTURES_PER_CHECK}. Pick fewer prompts, providers or samples.`, { field: "samples" });
  }
}

const fields = (input: ParsedScheduleInput) => ({
  name: input.name,
  brandId: input.brandId,
  promptSelection: input.prompts,
  providerConfigIds: input.providerConfigIds,
  samples: input.samples,
  cadence: input.cadence,
  weekday: input.weekday,
  minuteOfDay: input.minuteOfDay,
});

/**
 * Creates a schedule; with the form's `createKey`, once: a resubmit after a lost response (or a
 * double click) finds the one the first made (the unique key waits for it to commit), so no
 * second schedule makes and pays a second check at every slot.
 */
/**
 * The member's role read again under a share lock held until the write commits (assertStillCan), as a
 * check's start reads it: a schedule spends at every slot with no actor, so one saved or resumed
 * by a member removed or made a viewer since the action's check would pay on until deleted.
 */
async function stillManages(tx: Prisma.TransactionClient, workspaceId: string, userId: string | null) {
  if (!userId) return;
  await assertStillCan(tx, { workspaceId, userId }, canManageSchedules, "You can no longer manage schedules in this workspace.");
}

export async function createSchedule(workspaceId: string, createdById: string | null, input: ParsedScheduleInput) {
  await validateReferences(workspaceId, input);
  const now = await databaseNow();
  const select = { id: true, nextRunAt: true } as const;
  return transaction(async (tx) => {
    await stillManages(tx, workspaceId, createdById);
    return tx.schedule.create({ data: { workspaceId, createdById, createKey: input.createKey ?? null, ...fields(input), nextRunAt: nextRunAfter(input, now) }, select });
  })
    .catch(async (error: unknown) => {
      const made = input.createKey && isUniqueViolation(error) ? await db().schedule.findUnique({ where: { workspaceId_createKey: { workspaceId, createKey: input.createKey } }, select }) : null;
      if (made) return made;
      throw error;
    });
}

/** `version`: its editVersion as the form read it: a save after another member's edit (or prompts taken out of it) is refused (refuseStaleEdit). */
export async function updateSchedule(workspaceId: string, scheduleId: string, input: ParsedScheduleInput, actingUserId: string | null = null, version?: number) {
  const existing = await db().schedule.findFirst({ where: { id: scheduleId, workspaceId }, select: { cadence: true, weekday: true, minuteOfDay: true } });
  if (!existing) throw notFound();
  await validateReferences(workspaceId, input);
  // nextRunAt is written only when the timing changed: a run in progress advances it, and an
  // edit of the name must not put back the slot that run has just taken.
  const retimed = existing.cadence !== input.cadence || existing.weekday !== input.weekday || existing.minuteOfDay !== input.minuteOfDay;
  const now = retimed ? await databaseNow() : null;
  const updated = await transaction(async (tx) => {
    await stillManages(tx, workspaceId, actingUserId);
    const [current] = await tx.$queryRaw<{ name: string; editVersion: number }[]>`
      SELECT name, "editVersion" FROM schedules WHERE id = ${scheduleId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (current) refuseStaleEdit(current.name, current.editVersion, version);
    return tx.schedule.updateMany({
      where: { id: scheduleId, workspaceId },
      data: { ...fields(input), editVersion: { increment: 1 }, ...(now ? { nextRunAt: nextRunAfter(input, now) } : {}) },
    });
  });
  if (!updated.count) throw notFound();
  return { id: scheduleId };
}

export async function pauseSchedule(workspaceId: string, scheduleId: string) {
  const updated = await db().schedule.updateMany({ where: { id: scheduleId, workspaceId }, data: { paused: true } });
  if (!updated.count) throw notFound();
}

/** Runs missed while paused are skipped: the schedule picks up at its next slot from now (the database's now, which run-due compares nextRunAt with). */
export async function resumeSchedule(workspaceId: string, scheduleId: string, actingUserId: string | null = null) {
  const schedule = await db().schedule.findFirst({ where: { id: scheduleId, workspaceId }, select: { cadence: true, weekday: true, minuteOfDay: true, promptSelection: true } });
  if (!schedule) throw notFound();
  // Paused because every prompt it picked was archived (dropArchivedPrompts): it has nothing to ask until edited.
  if (!promptSelectionSchema.safeParse(schedule.promptSelection).success) throw new UserError("This schedule has no prompts left: edit it to pick some, then resume it.", { field: "prompts" });
  const nextRunAt = nextRunAfter(schedule, await databaseNow());
  const updated = await transaction(async (tx) => {
    await stillManages(tx, workspaceId, actingUserId);
    return tx.schedule.updateMany({ where: { id: scheduleId, workspaceId }, data: { paused: false, nextRunAt } });
  });
  if (!updated.count) throw notFound();
}

/** The schedule goes; the checks it started stay in the history (their scheduleId is cleared). */
export async function deleteSchedule(workspaceId: string, scheduleId: string) {
  const deleted = await db().schedule.deleteMany({ where: { id: scheduleId, workspaceId } });
  if (!deleted.count) throw notFound();
}

type LastOutcome = { kind: "check"; checkId: string; status: string; at: Date } | { kind: "failed"; message: string; at: Date };

async function lastOutcomes(workspaceId: string, scheduleIds: string[]): Promise<Map<string, LastOutcome>> {
  if (!scheduleIds.length) return new Map();
  const [checks, failures] = await Promise.all([
    db().$queryRaw<{ scheduleId: string; id: string; status: string; createdAt: Date }[]>`
      SELECT DISTINCT ON ("scheduleId") "scheduleId", id, status::text AS status, "createdAt"
      FROM checks
      WHERE "workspaceId" = ${workspaceId}::uuid AND "scheduleId" = ANY(${scheduleIds}::uuid[])
      ORDER BY "scheduleId", "createdAt" DESC`,
    db().$queryRaw<{ scheduleId: string; message: string | null; createdAt: Date }[]>`
      SELECT DISTINCT ON (data->>'scheduleId') data->>'scheduleId' AS "scheduleId", data->>'message' AS message, "createdAt"
      FROM events
      WHERE "workspaceId" = ${workspaceId}::uuid AND kind = ${SCHEDULE_FAILED_EVENT} AND data->>'scheduleId' = ANY(${scheduleIds}::text[])
      ORDER BY data->>'scheduleId', "createdAt" DESC`,
  ]);
  const outcomes = new Map<string, LastOutcome>();
  for (const c of checks) outcomes.set(c.scheduleId, { kind: "check", checkId: c.id, status: c.status, at: c.createdAt });
  for (const f of failures) {
    const check = outcomes.get(f.scheduleId);
    if (!check || check.at < f.createdAt) outcomes.set(f.scheduleId, { kind: "failed", message: f.message ?? "The check could not be created.", at: f.createdAt });
  }
  return outcomes;
}

/** A stored picked selection that no longer parses: its prompts were all archived (dropArchivedPrompts). */
const pickedNone = (selection: Prisma.JsonValue) => typeof selection === "object" && selection !== null && !Array.isArray(selection) && selection.mode === "picked";

/** The workspace's schedules with what the list shows: brand, providers and the last run's outcome. */
export async function listSchedules(workspaceId: string) {
  const schedules = await db().schedule.findMany({
    where: { workspaceId },
    include: { brand: { select: { name: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const providerIds = [...new Set(schedules.flatMap((s) => s.providerConfigIds))];
  const [providers, outcomes] = await Promise.all([
    db().providerConfig.findMany({ where: { workspaceId, id: { in: providerIds } }, select: { id: true, name: true } }),
    lastOutcomes(workspaceId, schedules.map((s) => s.id)),
  ]);
  const providerNames = new Map(providers.map((p) => [p.id, p.name]));
  return schedules.map((s) => {
    const selection = promptSelectionSchema.safeParse(s.promptSelection);
    return {
      id: s.id,
      name: s.name,
      brandId: s.brandId,
      brand: s.brand.name,
      // A picked list left empty by archived prompts (dropArchivedPrompts) is shown as that: none picked.
      prompts: (selection.success ? selection.data : pickedNone(s.promptSelection) ? { mode: "picked", promptIds: [] } : { mode: "all" }) as PromptSelection,
      providerConfigIds: s.providerConfigIds,
      providers: s.providerConfigIds.map((id) => providerNames.get(id) ?? "(deleted provider)"),
      samples: s.samples,
      cadence: s.cadence,
      weekday: s.weekday,
      minuteOfDay: s.minuteOfDay,
      /** The edit form's version (lib/validation/edit-version.ts). */
      editVersion: s.editVersion,
      paused: s.paused,
      nextRunAt: s.nextRunAt,
      lastRunAt: s.lastRunAt,
      lastOutcome: outcomes.get(s.id) ?? null,
    };
  });
}

export type ScheduleRow = Awaited<ReturnType<typeof listSchedules>>[number];
