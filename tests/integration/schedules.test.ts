// Schedules: members set them up through the server actions (validated, workspace-scoped,
// viewers read only), and due schedules start their checks through createCheck exactly once per
// slot, however many callers or worker processes race for them; missed slots run once, paused
// schedules never, and one schedule that cannot start its check does not hold up the others.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { waitFor } from "../support/wait-for";
import { startWorkers } from "../support/worker-process";
import { expectFieldError, join, ok, refused, signUp, type ActionResult, type Person } from "../support/workspace-fixtures";
import { createBrandAction } from "@/lib/actions/brands";
import { bulkCreatePromptsAction, deletePromptsAction } from "@/lib/actions/prompts";
import {
  createScheduleAction,
  deleteScheduleAction,
  listSchedulesAction,
  pauseScheduleAction,
  resumeScheduleAction,
  updateScheduleAction,
} from "@/lib/actions/schedules";
import { db } from "@/lib/db/prisma";
import { nextRunAfter, type ScheduleTiming } from "@/lib/schedules/next-run";
import { runDueSchedules, scheduleIdempotencyKey } from "@/lib/schedules/run-due";
import type { ScheduleInput } from "@/lib/schedules/schemas";
import { cancelCheckNow } from "../support/check-fixtures";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const DAY = 24 * 3600 * 1000;

type Workspace = { id: string; owner: Person; brandId: string; promptIds: string[]; providerIds: { ChatGPT: string; Perplexity: string; Gemini: string } };

let A: Workspace;
let B: Workspace;
let member: Person; // member of A
let viewer: Person; // viewer of A

async function setUpWorkspace(name: string, brand: string, questions: string[]): Promise<Workspace> {
  const owner = await signUp({ name: `${name} Owner`, workspaceName: name });
  const { id: brandId } = ok(await owner.browser.run(() => createBrandAction({ name: brand, competitors: [{ name: `${brand} Rival` }] })));
  ok(await owner.browser.run(() => bulkCreatePromptsAction({ lines: questions.join("\n"), tags: ["weekly"] })));
  const prompts = await db().prompt.findMany({ where: { workspaceId: owner.workspaceId }, orderBy: { text: "asc" }, select: { id: true } });
  const configs = await db().providerConfig.findMany({ where: { workspaceId: owner.workspaceId } });
  const idOf = (n: string) => configs.find((c) => c.name === n)!.id;
  return { id: owner.workspaceId, owner, brandId, promptIds: prompts.map((p) => p.id), providerIds: { ChatGPT: idOf("ChatGPT"), Perplexity: idOf("Perplexity"), Gemini: idOf("Gemini") } };
}

beforeAll(async () => {
  A = await setUpWorkspace("Acme", "Acme Anvils", ["Where can I buy a reliable anvil?", "Which anvil brand lasts longest?"]);
  B = await setUpWorkspace("Bravo", "Bravo Cola", ["Which cola tastes best?", "Is Bravo Cola good for parties?"]);
  member = await join(A.owner, "member", "Mia Member");
  viewer = await join(A.owner, "viewer", "Vic Viewer");
});

// Registered after tests/support/worker-process.ts's hook, so it runs before the workers stop.
afterEach(async () => {
  for (const ws of [A, B]) {
    const unfinished = await db().check.findMany({ where: { workspaceId: ws.id, status: { in: ["queued", "running"] } }, select: { id: true } });
    for (const { id } of unfinished) await cancelCheckNow({ workspaceId: ws.id, userId: ws.owner.userId, role: "owner" }, id);
    await db().workspace.update({ where: { id: ws.id }, data: { monthlyBudgetMicros: null } });
    await db().providerConfig.updateMany({ where: { workspaceId: ws.id }, data: { enabled: true } });
  }
  await db().schedule.deleteMany({});
});

/** A valid schedule for `ws`: daily at 09:00 UTC, all prompts, ChatGPT and Perplexity. */
function scheduleInput(ws: Workspace, overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    name: "Daily anvils",
    brandId: ws.brandId,
    prompts: { mode: "all" },
    providerConfigIds: [ws.providerIds.ChatGPT, ws.providerIds.Perplexity],
    samples: 1,
    cadence: "daily",
    weekday: null,
    minuteOfDay: 9 * 60,
    ...overrides,
  };
}

async function createAs(person: Person, ws: Workspace, overrides: Partial<ScheduleInput> = {}): Promise<string> {
  return ok(await person.browser.run(() => createScheduleAction(scheduleInput(ws, overrides)))).id;
}

const scheduleRow = (id: string) => db().schedule.findUniqueOrThrow({ where: { id } });
const allSchedules = () => db().schedule.findMany({ orderBy: { id: "asc" } });
const checksOf = (scheduleId: string) => db().check.findMany({ where: { scheduleId }, orderBy: { createdAt: "asc" } });
const failuresOf = (scheduleId: string) =>
  db().$queryRaw<{ message: string; slot: string }[]>`
    SELECT data->>'message' AS message, data->>'slot' AS slot FROM events
    WHERE kind = 'schedule_failed' AND data->>'scheduleId' = ${scheduleId} ORDER BY "createdAt"`;

/** Puts the schedule's next run at `at` (in the past: it is due). */
const dueAt = (id: string, at: Date) => db().schedule.update({ where: { id }, data: { nextRunAt: at } });

const timingOf = (row: { cadence: "daily" | "weekly"; weekday: number | null; minuteOfDay: number }): ScheduleTiming => row;

describe("managing schedules", () => {
  it("creates a schedule whose first run is the next slot after now", async () => {
    const before = new Date();
    const id = await createAs(A.owner, A, { name: "Weekly anvils", cadence: "weekly", weekday: 1, minuteOfDay: 14 * 60 + 30 });
    const after = new Date();
    const row = await scheduleRow(id);
    expect(row).toMatchObject({ workspaceId: A.id, name: "Weekly anvils", brandId: A.brandId, cadence: "weekly", weekday: 1, minuteOfDay: 870, samples: 1, paused: false, lastRunAt: null, createdById: A.owner.userId });
    expect(row.promptSelection).toEqual({ mode: "all" });
    expect(row.providerConfigIds).toEqual([A.providerIds.ChatGPT, A.providerIds.Perplexity]);
    const timing = timingOf(row);
    expect([nextRunAfter(timing, before), nextRunAfter(timing, after)].map((d) => d.toISOString())).toContain(row.nextRunAt.toISOString());
    expect(row.nextRunAt.getUTCDay()).toBe(1);

    const [listed] = ok(await A.owner.browser.run(() => listSchedulesAction()));
    expect(listed).toMatchObject({ id, name: "Weekly anvils", brand: "Acme Anvils", providers: ["ChatGPT", "Perplexity"], paused: false, lastOutcome: null });
  });

  it("a daily schedule keeps no weekday, whatever the form sent", async () => {
    const id = await createAs(A.owner, A, { cadence: "daily", weekday: 4 });
    expect((await scheduleRow(id)).weekday).toBeNull();
  });

  it("members create, edit, pause, resume and delete schedules", async () => {
    const id = await createAs(member, A, { prompts: { mode: "tag", tag: "weekly" } });
    const created = await scheduleRow(id);

    // Renaming keeps the next run; changing the time moves it.
    ok(await member.browser.run(() => updateScheduleAction({ scheduleId: id, schedule: scheduleInput(A, { name: "Renamed", prompts: { mode: "tag", tag: "weekly" } }) })));
    expect(await scheduleRow(id)).toMatchObject({ name: "Renamed", nextRunAt: created.nextRunAt });
    const picked = { mode: "picked" as const, promptIds: [A.promptIds[0]!] };
    const before = new Date();
    ok(await member.browser.run(() => updateScheduleAction({ scheduleId: id, schedule: scheduleInput(A, { name: "Renamed", prompts: picked, cadence: "weekly", weekday: 5, minuteOfDay: 7 * 60 }) })));
    const retimed = await scheduleRow(id);
    expect(retimed).toMatchObject({ cadence: "weekly", weekday: 5, minuteOfDay: 420, promptSelection: picked });
    expect(retimed.nextRunAt.getTime()).toBeGreaterThan(before.getTime());
    expect(retimed.nextRunAt.getUTCDay()).toBe(5);

    ok(await member.browser.run(() => pauseScheduleAction({ scheduleId: id })));
    expect((await scheduleRow(id)).paused).toBe(true);
    ok(await member.browser.run(() => resumeScheduleAction({ scheduleId: id })));
    expect((await scheduleRow(id)).paused).toBe(false);

    ok(await member.browser.run(() => deleteScheduleAction({ scheduleId: id })));
    expect(await db().schedule.findUnique({ where: { id } })).toBeNull();
  });

  it("resuming skips the runs missed while paused: the next run is the next slot from now", async () => {
    const id = await createAs(A.owner, A);
    ok(await A.owner.browser.run(() => pauseScheduleAction({ scheduleId: id })));
    await dueAt(id, new Date(Date.now() - 2 * DAY));
    const before = new Date();
    ok(await A.owner.browser.run(() => resumeScheduleAction({ scheduleId: id })));
    const row = await scheduleRow(id);
    expect(row.nextRunAt.getTime()).toBeGreaterThan(before.getTime());
    expect(await runDueSchedules()).toEqual([]);
    expect(await checksOf(id)).toHaveLength(0);
  });

  it("the next run is the next slot after the database's now, which the runs compare with, not the web server's", async () => {
    // The web server's clock two days behind: a daily slot after its now is in the database's past.
    const dbNow = async () => (await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 2 * DAY });
    try {
      const id = await createAs(A.owner, A);
      expect((await scheduleRow(id)).nextRunAt.getTime(), "created").toBeGreaterThan((await dbNow()).getTime());
      ok(await A.owner.browser.run(() => updateScheduleAction({ scheduleId: id, schedule: scheduleInput(A, { minuteOfDay: 17 * 60 }) })));
      expect((await scheduleRow(id)).nextRunAt.getTime(), "retimed").toBeGreaterThan((await dbNow()).getTime());
      ok(await A.owner.browser.run(() => pauseScheduleAction({ scheduleId: id })));
      ok(await A.owner.browser.run(() => resumeScheduleAction({ scheduleId: id })));
      expect((await scheduleRow(id)).nextRunAt.getTime(), "resumed").toBeGreaterThan((await dbNow()).getTime());
      // Nothing due: no check made (and paid) at once, at a slot nobody chose.
      expect(await runDueSchedules()).toEqual([]);
      expect(await checksOf(id)).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("deleting a schedule keeps the checks it ran in the history", async () => {
    const id = await createAs(A.owner, A);
    await dueAt(id, new Date(Date.now() - 60_000));
    const [run] = await runDueSchedules();
    expect(run?.outcome).toBe("created");
    ok(await A.owner.browser.run(() => deleteScheduleAction({ scheduleId: id })));
    const check = await db().check.findUniqueOrThrow({ where: { id: run!.outcome === "created" ? run!.checkId : "" } });
    expect(check.scheduleId).toBeNull();
  });
});

describe("validation", () => {
  const cases: [string, () => Partial<ScheduleInput>, string, RegExp][] = [
    ["a brand of another workspace", () => ({ brandId: B.brandId }), "brandId", /brand does not exist/],
    ["prompts of another workspace", () => ({ prompts: { mode: "picked", promptIds: [A.promptIds[0]!, B.promptIds[0]!] } }), "prompts.promptIds", /1 of the chosen prompts do not exist/],
    ["a tag no prompt has", () => ({ prompts: { mode: "tag", tag: "nonexistent" } }), "prompts.tag", /No prompt has the tag/],
    ["a provider of another workspace", () => ({ providerConfigIds: [A.providerIds.ChatGPT, B.providerIds.ChatGPT] }), "providerConfigIds", /providers do not exist/],
    ["no provider", () => ({ providerConfigIds: [] }), "providerConfigIds", /at least one provider/],
    ["a minute of the day past 23:59", () => ({ minuteOfDay: 1440 }), "minuteOfDay", /between 00:00 and 23:59/],
    ["a negative minute of the day", () => ({ minuteOfDay: -1 }), "minuteOfDay", /between 00:00 and 23:59/],
    ["a fractional minute of the day", () => ({ minuteOfDay: 90.5 }), "minuteOfDay", /time of day/],
    ["a weekly schedule without a weekday", () => ({ cadence: "weekly", weekday: null }), "weekday", /day of the week/],
    ["a weekday out of range", () => ({ cadence: "weekly", weekday: 7 }), "weekday", /day of the week/],
    ["an empty name", () => ({ name: "  " }), "name", /Enter a name/],
    ["too many samples", () => ({ samples: 6 }), "samples", /At most 5/],
  ];

  it.each(cases)("refuses %s with a message on the field, and stores nothing", async (_label, overrides, field, message) => {
    const before = await allSchedules();
    expectFieldError(await A.owner.browser.run(() => createScheduleAction(scheduleInput(A, overrides()))), field, message);
    expect(await allSchedules()).toEqual(before);
  });

  it.each(cases)("refuses an edit to %s, and changes nothing", async (_label, overrides, field, message) => {
    const id = await createAs(A.owner, A);
    const before = await allSchedules();
    const result = await A.owner.browser.run(() => updateScheduleAction({ scheduleId: id, schedule: scheduleInput(A, overrides()) }));
    // Input validation reports "schedule.<field>", checks against the database "<field>".
    const validation = (result as ActionResult).validationErrors !== undefined;
    expectFieldError(result, validation ? `schedule.${field}` : field, message);
    expect(await allSchedules()).toEqual(before);
  });

  it("refuses a disabled provider", async () => {
    await db().providerConfig.update({ where: { id: A.providerIds.Gemini }, data: { enabled: false } });
    expectFieldError(await A.owner.browser.run(() => createScheduleAction(scheduleInput(A, { providerConfigIds: [A.providerIds.Gemini] }))), "providerConfigIds", /Gemini is disabled/);
    expect(await allSchedules()).toEqual([]);
  });
});

describe("viewers", () => {
  it("see the workspace's schedules", async () => {
    const id = await createAs(A.owner, A);
    expect(ok(await viewer.browser.run(() => listSchedulesAction())).map((s) => s.id)).toEqual([id]);
  });

  it("cannot create, edit, pause, resume or delete one", async () => {
    const id = await createAs(A.owner, A);
    const before = await allSchedules();
    const attempts: (() => Promise<ActionResult>)[] = [
      () => createScheduleAction(scheduleInput(A)),
      () => updateScheduleAction({ scheduleId: id, schedule: scheduleInput(A, { name: "Viewer's" }) }),
      () => pauseScheduleAction({ scheduleId: id }),
      () => resumeScheduleAction({ scheduleId: id }),
      () => deleteScheduleAction({ scheduleId: id }),
    ];
    for (const attempt of attempts) refused(await viewer.browser.run(attempt), "forbidden");
    expect(await allSchedules()).toEqual(before);
  });
});

describe("workspace scoping", () => {
  it("lists only the caller's workspace's schedules", async () => {
    const a = await createAs(A.owner, A);
    const b = await createAs(B.owner, B, { name: "Bravo daily" });
    expect(ok(await A.owner.browser.run(() => listSchedulesAction())).map((s) => s.id)).toEqual([a]);
    expect(ok(await B.owner.browser.run(() => listSchedulesAction())).map((s) => s.id)).toEqual([b]);
  });

  it("treats another workspace's schedule as not found for every change, and changes nothing", async () => {
    const b = await createAs(B.owner, B, { name: "Bravo daily" });
    const before = await allSchedules();
    const attempts: (() => Promise<ActionResult>)[] = [
      () => updateScheduleAction({ scheduleId: b, schedule: scheduleInput(A, { name: "Hijacked" }) }),
      () => pauseScheduleAction({ scheduleId: b }),
      () => resumeScheduleAction({ scheduleId: b }),
      () => deleteScheduleAction({ scheduleId: b }),
    ];
    for (const attempt of attempts) refused(await A.owner.browser.run(attempt), "not_found");
    expect(await allSchedules()).toEqual(before);
  });

  it("a schedule's checks are created in its own workspace", async () => {
    const b = await createAs(B.owner, B, { name: "Bravo daily" });
    await dueAt(b, new Date(Date.now() - 60_000));
    await runDueSchedules();
    const [check] = await checksOf(b);
    expect(check).toMatchObject({ workspaceId: B.id, brandId: B.brandId });
    const captures = await db().capture.findMany({ where: { checkId: check!.id } });
    expect(captures.length).toBe(2 * 2);
    expect(captures.every((c) => c.workspaceId === B.id && B.promptIds.includes(c.promptId))).toBe(true);
  });
});

describe("creating a schedule once", () => {
  it("sent twice with the form's key (a resubmit after a lost response, or two at once) makes one schedule, and one check per slot", async () => {
    const createKey = crypto.randomUUID();
    const input = scheduleInput(A, { name: "Once", createKey });
    const [one, two] = await Promise.all([A.owner.browser.run(() => createScheduleAction(input)), A.owner.browser.run(() => createScheduleAction(input))]);
    expect(ok(two).id).toBe(ok(one).id);
    expect(ok(await A.owner.browser.run(() => createScheduleAction(input))).id, "a later resubmit").toBe(ok(one).id);
    expect(await db().schedule.count({ where: { workspaceId: A.id, name: "Once" } })).toBe(1);
    await dueAt(ok(one).id, new Date(Date.now() - 60_000));
    await runDueSchedules();
    expect(await db().check.count({ where: { workspaceId: A.id, schedule: { name: "Once" } } })).toBe(1);
    // Without a key (an API caller that sends none), each call makes its own.
    const plain = scheduleInput(A, { name: "Twice" });
    ok(await A.owner.browser.run(() => createScheduleAction(plain)));
    ok(await A.owner.browser.run(() => createScheduleAction(plain)));
    expect(await db().schedule.count({ where: { workspaceId: A.id, name: "Twice" } })).toBe(2);
  });
});

describe("prompts archived under a schedule", () => {
  it("a schedule stops asking the archived prompts it picked and asks the rest; one left with none is paused, saying why", async () => {
    ok(await A.owner.browser.run(() => bulkCreatePromptsAction({ lines: "Which anvil is archived first?\nWhich anvil is archived second?", tags: [] })));
    const [first, second] = await Promise.all(
      ["Which anvil is archived first?", "Which anvil is archived second?"].map(async (text) => (await db().prompt.findFirstOrThrow({ where: { workspaceId: A.id, text } })).id),
    );
    const mixed = await createAs(A.owner, A, { name: "Mixed", prompts: { mode: "picked", promptIds: [first!, A.promptIds[0]!] } });
    const archivedOnly = await createAs(A.owner, A, { name: "Archived only", prompts: { mode: "picked", promptIds: [second!] } });

    ok(await A.owner.browser.run(() => deletePromptsAction({ promptIds: [first!, second!] })));

    expect(await scheduleRow(mixed)).toMatchObject({ paused: false, promptSelection: { mode: "picked", promptIds: [A.promptIds[0]] } });
    expect(await scheduleRow(archivedOnly)).toMatchObject({ paused: true });
    expect((await failuresOf(archivedOnly)).map((f) => f.message)).toEqual(["Paused: every prompt it asked was archived. Edit it to pick prompts, then resume it."]);
    // Resumed as it is, it would fail at every slot: refused until it picks prompts again.
    expectFieldError(await A.owner.browser.run(() => resumeScheduleAction({ scheduleId: archivedOnly })), "prompts", /no prompts left/);
    expect(await scheduleRow(archivedOnly)).toMatchObject({ paused: true });
    const listed = ok(await A.owner.browser.run(() => listSchedulesAction())).find((row) => row.id === archivedOnly)!;
    expect(listed.prompts, "shown as none picked, for the form to pick again").toEqual({ mode: "picked", promptIds: [] });

    // Its next run asks the prompt it still has (it used to fail on the archived one and ask none).
    await dueAt(mixed, new Date(Date.now() - 60_000));
    const runs = await runDueSchedules();
    expect(runs.map((r) => [r.scheduleId, r.outcome])).toEqual([[mixed, "created"]]);
    const [check] = await checksOf(mixed);
    expect(await db().capture.findMany({ where: { checkId: check!.id }, distinct: ["promptId"], select: { promptId: true } })).toEqual([{ promptId: A.promptIds[0] }]);
  });
});

describe("a prompt archived as its schedule was saved", () => {
  it("the run asks the schedule's live prompts and leaves the archived one out, instead of failing", async () => {
    ok(await A.owner.browser.run(() => bulkCreatePromptsAction({ lines: "Which anvil is archived in a race?", tags: [] })));
    const raced = (await db().prompt.findFirstOrThrow({ where: { workspaceId: A.id, text: "Which anvil is archived in a race?" } })).id;
    const id = await createAs(A.owner, A, { name: "Raced", prompts: { mode: "picked", promptIds: [raced, A.promptIds[0]!] } });
    // Archived by a request that committed while the schedule was being saved: its cleanup did not see the schedule.
    await db().prompt.update({ where: { id: raced }, data: { deletedAt: new Date() } });
    await dueAt(id, new Date(Date.now() - 60_000));
    const [run] = await runDueSchedules();
    expect(run).toMatchObject({ scheduleId: id, outcome: "created" });
    const [check] = await checksOf(id);
    expect(await db().capture.findMany({ where: { checkId: check!.id }, distinct: ["promptId"], select: { promptId: true } })).toEqual([{ promptId: A.promptIds[0] }]);
  });
});

describe("running due schedules", () => {
  it("creates exactly one check when several callers race for a due schedule", async () => {
    const id = await createAs(A.owner, A, { samples: 2 });
    const slot = new Date(Date.now() - 30_000);
    await dueAt(id, slot);

    const runs = (await Promise.all([runDueSchedules(), runDueSchedules(), runDueSchedules(), runDueSchedules()])).flat();
    expect(runs.map((r) => r.outcome)).toEqual(["created"]);

    const checks = await checksOf(id);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ workspaceId: A.id, scheduleId: id, brandId: A.brandId, samples: 2, startedById: null, totalCaptures: 2 * 2 * 2 });
    expect(checks[0]!.idempotencyKey).toBe(scheduleIdempotencyKey(id, slot));
    expect(checks[0]!.idempotencyKey).toBe(`schedule:${id}:${slot.toISOString()}`);

    const row = await scheduleRow(id);
    expect(row.lastRunAt).not.toBeNull();
    expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now());
    expect(row.nextRunAt.toISOString()).toBe(nextRunAfter(timingOf(row), row.lastRunAt!).toISOString());

    // Not due any more: nothing happens on the next tick.
    expect(await runDueSchedules()).toEqual([]);
    expect(await checksOf(id)).toHaveLength(1);
  });

  it("a schedule that missed three days of slots runs once, and its next run moves to the future", async () => {
    const id = await createAs(A.owner, A, { minuteOfDay: 0 });
    const slot = new Date(Date.now() - 3 * DAY);
    await dueAt(id, slot);
    const before = new Date();
    const runs = await runDueSchedules();
    expect(runs).toHaveLength(1);
    const checks = await checksOf(id);
    expect(checks.map((c) => c.idempotencyKey)).toEqual([scheduleIdempotencyKey(id, slot)]);
    const row = await scheduleRow(id);
    expect(row.nextRunAt.getTime()).toBeGreaterThan(before.getTime());
    expect(row.nextRunAt.getTime() - before.getTime()).toBeLessThanOrEqual(DAY);
    expect(row.nextRunAt.getUTCHours() * 60 + row.nextRunAt.getUTCMinutes()).toBe(0);
    expect(await runDueSchedules()).toEqual([]);
  });

  it("paused schedules never run", async () => {
    const id = await createAs(A.owner, A);
    ok(await A.owner.browser.run(() => pauseScheduleAction({ scheduleId: id })));
    const slot = new Date(Date.now() - DAY);
    await dueAt(id, slot);
    expect(await runDueSchedules()).toEqual([]);
    expect(await checksOf(id)).toHaveLength(0);
    expect(await scheduleRow(id)).toMatchObject({ nextRunAt: slot, lastRunAt: null });
  });

  it("schedules that are not due yet do not run", async () => {
    const id = await createAs(A.owner, A);
    await dueAt(id, new Date(Date.now() + 60_000));
    expect(await runDueSchedules()).toEqual([]);
    expect(await checksOf(id)).toHaveLength(0);
  });

  it("a run retried after its check was created finds that check instead of creating a second", async () => {
    const id = await createAs(A.owner, A);
    const slot = new Date(Date.now() - 60_000);
    await dueAt(id, slot);
    const [first] = await runDueSchedules();
    expect(first?.outcome).toBe("created");
    // As if the claim had rolled back after createCheck committed (a crash, a lost connection).
    await dueAt(id, slot);
    const [again] = await runDueSchedules();
    expect(again).toMatchObject({ outcome: "replayed", checkId: first!.outcome === "created" ? first!.checkId : "" });
    expect(await checksOf(id)).toHaveLength(1);
    expect((await scheduleRow(id)).nextRunAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("a schedule that cannot start its check records why, moves on, and does not hold up the others", async () => {
    const disabled = await createAs(A.owner, A, { name: "Uses Gemini", providerConfigIds: [A.providerIds.Gemini] });
    const healthy = await createAs(A.owner, A, { name: "Healthy" });
    const overBudget = await createAs(B.owner, B, { name: "Over budget" });
    await db().providerConfig.update({ where: { id: A.providerIds.Gemini }, data: { enabled: false } });
    await db().workspace.update({ where: { id: B.id }, data: { monthlyBudgetMicros: 1 } });
    // The failing ones come first in the queue.
    const slot = new Date(Date.now() - 3 * 60_000);
    await dueAt(disabled, slot);
    await dueAt(overBudget, new Date(slot.getTime() + 1));
    await dueAt(healthy, new Date(slot.getTime() + 2));

    const runs = await runDueSchedules();
    expect(Object.fromEntries(runs.map((r) => [r.scheduleId, r.outcome]))).toEqual({ [disabled]: "failed", [overBudget]: "failed", [healthy]: "created" });

    expect(await checksOf(disabled)).toHaveLength(0);
    expect(await checksOf(overBudget)).toHaveLength(0);
    expect(await checksOf(healthy)).toHaveLength(1);
    expect(await failuresOf(disabled)).toEqual([{ message: expect.stringMatching(/Gemini is disabled/), slot: slot.toISOString() }]);
    expect(await failuresOf(overBudget)).toEqual([{ message: expect.stringMatching(/over this month's budget/), slot: new Date(slot.getTime() + 1).toISOString() }]);
    for (const id of [disabled, overBudget, healthy]) {
      const row = await scheduleRow(id);
      expect(row.nextRunAt.getTime(), `nextRunAt of ${row.name}`).toBeGreaterThan(Date.now());
      expect(row.lastRunAt, `lastRunAt of ${row.name}`).not.toBeNull();
    }
    // Nothing was left half-made by the refused checks: no reservation, no captures.
    const held = await db().budgetPeriod.groupBy({ by: ["periodStart"], where: { workspaceId: B.id }, _sum: { reservedMicros: true } });
    expect(held.filter((month) => (month._sum.reservedMicros ?? 0n) > 0n)).toEqual([]);

    // The list shows the failure as the last run's outcome, and the healthy one's check.
    const listed = ok(await A.owner.browser.run(() => listSchedulesAction()));
    expect(listed.find((s) => s.id === disabled)?.lastOutcome).toMatchObject({ kind: "failed", message: expect.stringMatching(/Gemini is disabled/) });
    expect(listed.find((s) => s.id === healthy)?.lastOutcome).toMatchObject({ kind: "check", status: "queued" });
  });
});

describe("with two worker processes", () => {
  it("due schedules each get exactly one check when both workers run the schedules task at once", async () => {
    // One job at a time per process, so the jobs below spread over both workers.
    const workers = await startWorkers(["w1", "w2"], { SIMULATOR_LATENCY_MS: "50-100", BEACON_WORKER_CONCURRENCY: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await createAs(A.owner, A, { name: `Race ${i}`, prompts: { mode: "picked", promptIds: [A.promptIds[i % 2]!] } }));
    const slot = new Date(Date.now() - 5 * 60_000);
    for (const id of ids) await dueAt(id, slot);

    // Several jobs of the task at once (as if the cron and retries fired together).
    await db().$executeRaw`SELECT graphile_worker.add_job('schedules') FROM generate_series(1, 4)`;
    const output = () => workers.map((w) => w.output()).join("\n");
    await waitFor(
      async () => {
        const [{ n }] = await db().$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'schedules'`;
        const rows = await db().schedule.findMany({ where: { id: { in: ids } } });
        return n === 0 && rows.every((r) => r.nextRunAt.getTime() > Date.now());
      },
      { what: "the schedules jobs to finish and every schedule to move on", timeoutMs: 30_000, details: output },
    );

    for (const id of ids) {
      const checks = await checksOf(id);
      expect(checks.map((c) => c.idempotencyKey), `checks of schedule ${id}`).toEqual([scheduleIdempotencyKey(id, slot)]);
    }
    // Each schedule was run by exactly one job in one of the processes; the others skipped it.
    const ran = workers.flatMap((w) => w.lines.flatMap((l) => l.text.match(/^schedule (\S+): slot \S+ -> check \S+$/)?.[1] ?? []));
    expect(ran.sort()).toEqual([...ids].sort());
    // The workers run the checks like any other.
    await waitFor(
      async () => {
        const checks = await db().check.findMany({ where: { scheduleId: { in: ids } } });
        return checks.every((c) => c.status === "completed");
      },
      { what: "the scheduled checks to complete", timeoutMs: 30_000, details: output },
    );
  }, 120_000);
});
