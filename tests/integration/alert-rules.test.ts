// Alert rules against answers written by hand: a change inside the noise stays quiet, a real one
// fires once with the numbers behind it (n, values, interval, p), whoever evaluates and however
// often; competitors overtaking, pages going silent, breakers and the budget; who may change
// rules; a finished check asks for an evaluation.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { expectFieldError, join, ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { deleteAlertChannelAction } from "@/lib/actions/alert-channels";
import { createAlertRuleAction, deleteAlertRuleAction, listAlertFiringsAction, listAlertRulesAction, setAlertRuleEnabledAction, updateAlertRuleAction } from "@/lib/actions/alerts";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { setRuleEnabled, updateRule } from "@/lib/alerts/rules";
import { ruleInputSchema } from "@/lib/alerts/schemas";
import { ALERT_KINDS_BY_REASON } from "@/lib/alerts/kinds";
import { periods } from "@/lib/alerts/kinds/answer-scope";
import type { RuleInput } from "@/lib/alerts/schemas";
import type { OverviewKpis } from "@/lib/analytics/kpis";
import { readChart } from "@/lib/analytics/read-chart";
import { recordRollups } from "@/lib/analytics/rollups";
import { finishCheckIfDone } from "@/lib/lifecycle/transition";
import { db } from "@/lib/db/prisma";
import { updateBrand } from "@/lib/brands/brands";
import { retryReanalysisAction } from "@/lib/actions/brands";
import { onPausePoint } from "@/lib/db/pause-points";
import { runReanalysis } from "@/lib/brands/reanalysis";
import { brandInputSchema } from "@/lib/brands/schemas";
import { storeHits } from "@/lib/traffic/store";
import { rotateSiteKey } from "@/lib/traffic/visits";
import { brandCandidates, candidateKey } from "@/lib/analysis/brand-candidates";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// "Now" for every evaluation: the current period is 2025-06-09 .. 06-15, the previous 06-02 .. 06-08.
const NOW = new Date("2025-06-15T12:00:00Z");
const PREVIOUS_DAY = "2025-06-04";
const CURRENT_DAY = "2025-06-12";

type World = { owner: Person; workspaceId: string; brandId: string; rivalId: string; providerId: string; connectionId: string; model: string; promptIds: string[] };

async function buildWorld(name: string): Promise<World> {
  const owner = await signUp({ name: `${name} Owner`, workspaceName: name });
  const workspaceId = owner.workspaceId;
  const brand = await db().brand.create({
    data: { workspaceId, name: "Acme", domains: ["acme.com"], competitors: { create: [{ workspaceId, name: "Rival" }] } },
    include: { competitors: true },
  });
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  // Each world its own model, so a breaker (per connection and model) is one world's alone.
  const model = `${name.toLowerCase().replace(/\W+/g, "-")}-model`;
  const provider = await db().providerConfig.create({ data: { workspaceId, name: "Alpha", connectionId: simulator.id, model } });
  const promptIds = [];
  for (const text of ["Best anvil?", "Cheapest anvil?"]) promptIds.push((await db().prompt.create({ data: { workspaceId, text } })).id);
  return { owner, workspaceId, brandId: brand.id, rivalId: brand.competitors[0]!.id, providerId: provider.id, connectionId: simulator.id, model, promptIds };
}

type Answer = { day: string; prompt?: number; brand?: number | null; rival?: number | null; cites?: string[]; text?: string };

/** Succeeded, analysed answers: `brand` / `rival` give the position where named (null: not named). */
async function writeAnswers(world: World, answers: Answer[]): Promise<void> {
  const { workspaceId, brandId } = world;
  const check = await db().check.create({ data: { workspaceId, brandId, totalCaptures: answers.length, status: "completed", isDemo: true } });
  const ids = answers.map(() => randomUUID());
  await db().capture.createMany({
    data: answers.map((a, i) => ({
      id: ids[i]!, workspaceId, checkId: check.id, brandId, promptId: world.promptIds[a.prompt ?? 0]!, providerConfigId: world.providerId,
      connectionId: world.connectionId, sample: i + 1, status: "succeeded" as const, maxAttempts: 3, attemptCount: 1, model: "m", searchMode: "auto" as const,
      answerText: a.text ?? "An answer", finishedAt: new Date(`${a.day}T10:00:00Z`), analyzedAt: new Date(`${a.day}T10:00:00Z`),
    })),
  });
  const mention = (captureId: string, kind: "brand" | "competitor", position: number | null | undefined) => ({
    workspaceId, captureId, kind, name: kind === "brand" ? "Acme" : "Rival", mentioned: position != null, count: position != null ? 1 : 0,
    position: position ?? null, sentiment: position != null ? ("neutral" as const) : null,
    brandId: kind === "brand" ? brandId : null, competitorId: kind === "competitor" ? world.rivalId : null,
  });
  await db().mention.createMany({ data: answers.flatMap((a, i) => [mention(ids[i]!, "brand", a.brand), mention(ids[i]!, "competitor", a.rival)]) });
  await db().citation.createMany({
    data: answers.flatMap((a, i) => (a.cites ?? []).map((url, position) => ({ workspaceId, captureId: ids[i]!, url, domain: "acme.com", isOwnDomain: true, citedInText: true, position: position + 1 }))),
  });
  // The untracked names the answers list (competitor discovery), as the analysis stores them.
  const tracked = await db().brand.findUniqueOrThrow({ where: { id: brandId }, select: { name: true, aliases: true, competitors: { select: { name: true, aliases: true } } } });
  await db().captureCandidate.createMany({
    data: answers.flatMap((a, i) =>
      brandCandidates(a.text ?? "An answer", [tracked, ...tracked.competitors]).map((name) => ({
        captureId: ids[i]!, key: candidateKey(name), name, workspaceId, brandId, finishedAt: new Date(`${a.day}T10:00:00Z`), providerConfigId: world.providerId, promptId: world.promptIds[a.prompt ?? 0]!,
      })),
    ),
  });
  await recordRollups(db(), ids);
}

/** `named` of `total` answers on `day` name the brand (first). */
const visibility = (day: string, named: number, total: number, prompt = 0): Answer[] =>
  Array.from({ length: total }, (_, i) => ({ day, prompt, brand: i < named ? 1 : null }));

async function addRule(world: World, rule: RuleInput): Promise<string> {
  return ok(await world.owner.browser.run(() => createAlertRuleAction(rule))).id;
}

type Facts = { method: string; p: number; change: number; interval: { low: number; high: number }; previous: object; current: object };

const firingsOf = (ruleId: string) => db().alertFiring.findMany({ where: { ruleId }, orderBy: { firedAt: "asc" } });
const resultOf = (results: Awaited<ReturnType<typeof evaluateAlerts>>, ruleId: string) => results.find((r) => r.ruleId === ruleId)!.outcome;

let A: World;
let B: World;
let noise: World;

beforeAll(async () => {
  A = await buildWorld("Alerts A");
  B = await buildWorld("Alerts B");
  noise = await buildWorld("Alerts noise");
  // A: visibility 40 % -> 60 % of 100 answers each (p = 0.0047). Noise: 40 % -> 45 % (p = 0.47).
  await writeAnswers(A, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 60, 100)]);
  await writeAnswers(noise, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 45, 100)]);
}, 120_000);

const visibilityRule = (brandId: string, name = "Visibility moved", extra: Partial<{ direction: "any" | "worse" | "better"; minChange: number; minAnswers: number }> = {}) => ({
  name,
  kind: "metric_change" as const,
  brandId,
  params: { metric: "visibility" as const, windowDays: 7, confidence: 0.95 as const, ...extra },
});

describe("a number that changed: visibility", () => {
  it("fires on a real change, once, with n, values, interval and p, and enqueues a delivery per channel", async () => {
    // Channels written directly: their own tests (alert-channels) cover saving and sending them.
    const channels = await Promise.all(
      ["Team mail", "Hook"].map((name, i) =>
        db().alertChannel.create({ data: { workspaceId: A.workspaceId, name, kind: i ? "webhook" : "email", config: i ? { url: "https://hooks.example.com/x" } : { to: ["team@example.com"] }, secret: i ? "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=" : null } }),
      ),
    );
    const ruleId = await addRule(A, { ...visibilityRule(A.brandId), channelIds: channels.map((c) => c.id) });
    const [first] = (await evaluateAlerts(A.workspaceId, { now: NOW })).filter((r) => r.ruleId === ruleId);
    expect(first!.outcome).toMatchObject({ status: "fired", fired: 1 });
    const [firing] = await firingsOf(ruleId);
    expect(firing!.title).toBe("Visibility of Acme rose from 40 % to 60 %");
    expect(firing!.summary).toMatch(/p = 0\.005/);
    const facts = firing!.facts as Facts;
    expect(facts.method).toBe("two-proportion z-test (pooled)");
    expect(facts.p).toBeCloseTo(0.004678, 5);
    expect(facts.change).toBeCloseTo(0.2, 10);
    expect(facts.interval.low).toBeCloseTo(0.06141, 4);
    expect(facts.interval.high).toBeCloseTo(0.32813, 4);
    expect(facts.previous).toMatchObject({ value: 0.4, n: 100, from: "2025-06-02", to: "2025-06-09" });
    expect(facts.current).toMatchObject({ value: 0.6, n: 100, from: "2025-06-09", to: "2025-06-16" });
    const deliveries = await db().alertDelivery.findMany({ where: { firingId: firing!.id }, orderBy: { channelId: "asc" } });
    expect(deliveries.map((d) => [d.channelId, d.kind, d.status]).sort()).toEqual(channels.map((c) => [c.id, "firing", "pending"]).sort());
    const jobs = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'deliver_alert' AND key = ANY(${deliveries.map((d) => `deliver_alert:${d.id}`)})`;
    expect(jobs[0]!.n).toBe(2);

    // Evaluated again, the same evidence fires no second time.
    expect(resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 0 });
    expect(await firingsOf(ruleId)).toHaveLength(1);
    expect(await db().alertDelivery.count({ where: { firing: { ruleId } } })).toBe(2);
    await db().alertRule.delete({ where: { id: ruleId } });
    await db().alertChannel.deleteMany({ where: { id: { in: channels.map((c) => c.id) } } });
  });

  it("fires, and delivers to the other channels, when one of its channels is deleted while the firing is written", async () => {
    const channels = await Promise.all(
      ["Kept", "Deleted"].map((name) => db().alertChannel.create({ data: { workspaceId: A.workspaceId, name, kind: "email", config: { to: [`${name.toLowerCase()}@example.com`] } } })),
    );
    const [kept, deleted] = channels as [(typeof channels)[0], (typeof channels)[0]];
    const ruleId = await addRule(A, { ...visibilityRule(A.brandId, "Channel deleted"), channelIds: channels.map((c) => c.id) });
    // The worst moment: the firing is inserted and its rule's channels read, no delivery written yet.
    const gate = gateAt("alert:channels-read", (c) => c.ruleId === ruleId);
    const evaluation = evaluateAlerts(A.workspaceId, { now: NOW });
    await gate.reached;
    const deleting = A.owner.browser.run(() => deleteAlertChannelAction({ channelId: deleted.id }));
    // Either the delete waits for the firing (the channel is held) or, unguarded, commits first.
    await Promise.race([deleting, waitForLockWaiter()]);
    gate.open();

    expect(resultOf(await evaluation, ruleId)).toMatchObject({ status: "fired", fired: 1 });
    ok(await deleting);
    const [firing] = await firingsOf(ruleId);
    expect(firing, "the firing is kept").toBeDefined();
    const deliveries = await db().alertDelivery.findMany({ where: { firingId: firing!.id }, select: { channelId: true } });
    expect(deliveries, "the deleted channel's delivery went with it; the other stays").toEqual([{ channelId: kept.id }]);
    expect(await db().alertChannel.count({ where: { id: deleted.id } })).toBe(0);
    await db().alertRule.delete({ where: { id: ruleId } });
    await db().alertChannel.deleteMany({ where: { id: kept.id } });
  });

  it("stays quiet on a change inside the noise, and says why", async () => {
    const ruleId = await addRule(noise, visibilityRule(noise.brandId));
    const outcome = resultOf(await evaluateAlerts(noise.workspaceId, { now: NOW }), ruleId);
    expect(outcome.status).toBe("quiet");
    expect(outcome.message).toMatch(/40 % \(n = 100\) to 45 % \(n = 100\), \+5 points, p = 0\.474: within sampling noise at 95 % confidence/);
    expect(await firingsOf(ruleId)).toHaveLength(0);
    // The rule keeps what it found, with the sample-size hint: a 5-point fall from today's 45 %
    // needs about 1,500 answers per period, here all from one prompt and one provider.
    const [rule] = ok(await noise.owner.browser.run(() => listAlertRulesAction())).filter((r) => r.id === ruleId);
    expect(rule!.lastResult).toMatchObject({ status: "quiet" });
    expect(rule!.lastResult!.hint).toMatchObject({ metric: "visibility", change: 0.05, answersLastPeriod: 100, prompts: 1, providers: 1 });
    expect(rule!.lastResult!.hint!.answersPerPeriod).toBeGreaterThan(1400);
    expect(rule!.lastResult!.hint!.samplesPerPromptAndProvider).toBe(rule!.lastResult!.hint!.answersPerPeriod);
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("a rule watching only for worse, or for bigger changes, stays quiet on a 20-point rise", async () => {
    const worse = await addRule(A, visibilityRule(A.brandId, "Worse", { direction: "worse" }));
    const big = await addRule(A, visibilityRule(A.brandId, "Big", { minChange: 0.25 }));
    const results = await evaluateAlerts(A.workspaceId, { now: NOW });
    expect(resultOf(results, worse).message).toMatch(/not in the direction the rule watches/);
    expect(resultOf(results, big).message).toMatch(/smaller than the rule's 25 % threshold/);
    expect(await db().alertFiring.count({ where: { ruleId: { in: [worse, big] } } })).toBe(0);
    await db().alertRule.deleteMany({ where: { id: { in: [worse, big] } } });
  });

  it("compares the prompts answered in both periods: a prompt added since does not read as a change", async () => {
    // The brand is named in 40 % of the first prompt's answers in both periods; a second prompt,
    // added this period, never names it. Over all answers visibility "fell" from 40 % to 20 %.
    const mix = await buildWorld("Alerts prompt mix");
    await writeAnswers(mix, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 40, 100), ...visibility(CURRENT_DAY, 0, 100, 1)]);
    const ruleId = await addRule(mix, visibilityRule(mix.brandId));
    const outcome = resultOf(await evaluateAlerts(mix.workspaceId, { now: NOW }), ruleId);
    expect(outcome.status).toBe("quiet");
    expect(outcome.message).toMatch(/40 % \(n = 100\) to 40 % \(n = 100\), \+0 points/);
    expect(outcome.message).toMatch(/on the 1 prompt answered in both periods \(1 answered in only one left out\)/);
    expect(await firingsOf(ruleId)).toHaveLength(0);

    // The Overview's tile for the same week measures its change the same way (one rule: comparablePrompts).
    const { current } = periods(NOW, 7);
    const lastDay = new Date(current.to.getTime() - 86_400_000).toISOString().slice(0, 10);
    const kpis = (await readChart(mix.workspaceId, "kpis", new URLSearchParams({ brand: mix.brandId, from: current.from.toISOString().slice(0, 10), to: lastDay }))) as OverviewKpis;
    expect(kpis.visibility.current, "this week's level, over every answer").toMatchObject({ value: 0.2, n: 200 });
    expect(kpis.visibility.change, "the change, on the prompt answered in both weeks").toBe(0);
    expect(kpis).toMatchObject({ comparedPrompts: 1, promptsInOnePeriod: 1 });
    expect(kpis.visibility.test).toMatchObject({ p: 1, beyondNoise: false });
  });

  it("waits while the brand's answers are re-analysed after an edit, and is judged when that ends", async () => {
    // A real 40 % -> 60 % change, but the brand was just edited: part of its history would be
    // judged with old inputs, part with new. Not judged until the re-analysis ends.
    const edited = await buildWorld("Alerts reanalysing");
    await writeAnswers(edited, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 60, 100)]);
    const ruleId = await addRule(edited, visibilityRule(edited.brandId));
    // A kind the daily pass alone judges, not a finished check: it waits too, and must not wait a day more.
    const namesRuleId = await addRule(edited, { name: "New names", kind: "new_brand", brandId: edited.brandId, params: { thresholdPercent: 10 } });
    await updateBrand(edited.workspaceId, edited.brandId, brandInputSchema.parse({ name: "Acme", aliases: ["Acme Inc"], domains: ["acme.com"], competitors: [{ name: "Rival" }] }));
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: edited.brandId, status: "queued" } });
    const evaluated = await evaluateAlerts(edited.workspaceId, { now: NOW });
    const outcome = resultOf(evaluated, ruleId);
    expect(outcome).toMatchObject({ status: "waiting", fired: 0 });
    expect(outcome.message).toMatch(/being re-analysed/);
    expect(resultOf(evaluated, namesRuleId)).toMatchObject({ status: "waiting" });
    expect(await firingsOf(ruleId)).toHaveLength(0);

    // The run ends and asks for an evaluation of every kind; each rule is judged again (on answers analysed alike).
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key LIKE ${`alerts:${edited.workspaceId}:%`}`;
    await runReanalysis(run.id);
    const asked = await db().$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker.jobs WHERE key LIKE ${`alerts:${edited.workspaceId}:%`}`;
    expect(asked).toHaveLength(1);
    const reason = asked[0]!.key.split(":").at(-1) as keyof typeof ALERT_KINDS_BY_REASON;
    const judged = await evaluateAlerts(edited.workspaceId, { now: NOW, kinds: ALERT_KINDS_BY_REASON[reason] });
    expect(resultOf(judged, ruleId).status).not.toBe("waiting");
    expect(resultOf(judged, namesRuleId).status).not.toBe("waiting");
  });

  it("a brand edited while its rule is being judged (its history about to be re-analysed) does not fire on it, and waits", async () => {
    const edited = await buildWorld("Alerts edited mid-judge");
    await writeAnswers(edited, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 60, 100)]);
    const ruleId = await addRule(edited, visibilityRule(edited.brandId));
    // The evaluation read that no re-analysis runs, and judged the rule on that; the edit commits now.
    const gate = gateAt("alert:before-fire", (c) => c.ruleId === ruleId);
    const evaluation = evaluateAlerts(edited.workspaceId, { now: NOW });
    await gate.reached;
    await updateBrand(edited.workspaceId, edited.brandId, brandInputSchema.parse({ name: "Acme", aliases: ["Acme Inc"], domains: ["acme.com"], competitors: [{ name: "Rival" }] }));
    gate.open();
    const outcome = resultOf(await evaluation, ruleId);
    expect(outcome).toMatchObject({ status: "waiting", fired: 0 });
    expect(outcome.message).toMatch(/being re-analysed/);
    expect(await firingsOf(ruleId)).toHaveLength(0);
  });

  it("keeps waiting when the re-analysis fails (between its attempts and after the last), until a retry asked from the Brands page ends it", async () => {
    const edited = await buildWorld("Alerts reanalysis failed");
    await writeAnswers(edited, [...visibility(PREVIOUS_DAY, 40, 100), ...visibility(CURRENT_DAY, 60, 100)]);
    const ruleId = await addRule(edited, visibilityRule(edited.brandId));
    await updateBrand(edited.workspaceId, edited.brandId, brandInputSchema.parse({ name: "Acme", aliases: ["Acme Inc"], domains: ["acme.com"], competitors: [{ name: "Rival" }] }));
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: edited.brandId, status: "queued" } });
    // The first batch's transaction fails (a lost connection, a bug): nothing of it is stored.
    const off = onPausePoint("reanalysis:batch-before-commit", () => {
      throw new Error("connection lost");
    });
    try {
      // An attempt the job will make again: the run waits for it, with the error shown.
      await expect(runReanalysis(run.id, { lastAttempt: false })).rejects.toThrow("connection lost");
      expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "queued", error: "connection lost" });
      expect(resultOf(await evaluateAlerts(edited.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "waiting", fired: 0 });
      // The last attempt: the run failed, and the brand's history is still part old, part new.
      await expect(runReanalysis(run.id, { lastAttempt: true })).rejects.toThrow("connection lost");
      expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "failed", error: "connection lost" });
    } finally {
      off();
    }
    const outcome = resultOf(await evaluateAlerts(edited.workspaceId, { now: NOW }), ruleId);
    expect(outcome).toMatchObject({ status: "waiting", fired: 0 });
    expect(outcome.message).toMatch(/re-analysis.*failed.*Brands page/i);
    expect(await firingsOf(ruleId)).toHaveLength(0);

    // Viewers cannot ask for it again; another workspace's brand is not found; neither queues a run.
    const viewer = await join(edited.owner, "viewer");
    refused(await viewer.browser.run(() => retryReanalysisAction({ brandId: edited.brandId })), "forbidden");
    refused(await A.owner.browser.run(() => retryReanalysisAction({ brandId: edited.brandId })), "not_found");
    expect(await db().analysisRun.count({ where: { brandId: edited.brandId } })).toBe(1);
    // The owner asks again: a new run, which ends and is judged.
    const retried = ok(await edited.owner.browser.run(() => retryReanalysisAction({ brandId: edited.brandId })));
    expect(retried.runId).not.toBe(run.id);
    // Asked twice (a double click): the same waiting run.
    expect(ok(await edited.owner.browser.run(() => retryReanalysisAction({ brandId: edited.brandId }))).runId).toBe(retried.runId);
    await runReanalysis(retried.runId, { lastAttempt: true });
    expect(resultOf(await evaluateAlerts(edited.workspaceId, { now: NOW }), ruleId).status).not.toBe("waiting");
    // Nothing failed: nothing to retry.
    refused(await edited.owner.browser.run(() => retryReanalysisAction({ brandId: edited.brandId })), "conflict", "invalid");
  });

  it("too few answers: no verdict", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Strict", { minAnswers: 150 }));
    const outcome = resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ruleId);
    expect(outcome).toMatchObject({ status: "too_few_answers", fired: 0 });
    expect(outcome.message).toMatch(/100 and 100 .* needs 150 in each/);
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("created twice with the form's key (a resubmit after a lost response, or two at once) is one rule, so each finding is delivered once", async () => {
    const rule = { ...visibilityRule(A.brandId, "Created once"), createKey: crypto.randomUUID() };
    const [one, two] = await Promise.all([A.owner.browser.run(() => createAlertRuleAction(rule)), A.owner.browser.run(() => createAlertRuleAction(rule))]);
    expect(ok(two).id).toBe(ok(one).id);
    expect(await db().alertRule.count({ where: { workspaceId: A.workspaceId, name: "Created once" } })).toBe(1);
    expect(resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ok(one).id).fired).toBe(1);
    expect(await db().alertFiring.count({ where: { rule: { workspaceId: A.workspaceId, name: "Created once" } } })).toBe(1);
    await db().alertRule.delete({ where: { id: ok(one).id } });
  });

  it("two evaluations at once fire once: the second waits on the first's uncommitted firing", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Raced"));
    const gate = gateAt("alert:firing-before-commit", (c) => c.ruleId === ruleId);
    const first = evaluateAlerts(A.workspaceId, { now: NOW });
    await gate.reached;
    const second = evaluateAlerts(A.workspaceId, { now: NOW });
    await waitForLockWaiter();
    gate.open();
    const [one, two] = await Promise.all([first, second]);
    expect(resultOf(one, ruleId).fired + resultOf(two, ruleId).fired).toBe(1);
    expect(await firingsOf(ruleId)).toHaveLength(1);
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("a rule disabled, deleted or edited to watch something else while it is being judged does not fire", async () => {
    for (const change of ["disable", "delete", "edit"] as const) {
      const ruleId = await addRule(A, visibilityRule(A.brandId, `Changed: ${change}`));
      const gate = gateAt("alert:before-fire", (c) => c.ruleId === ruleId);
      const evaluation = evaluateAlerts(A.workspaceId, { now: NOW });
      await gate.reached;
      if (change === "disable") ok(await A.owner.browser.run(() => setAlertRuleEnabledAction({ ruleId, enabled: false })));
      else if (change === "delete") ok(await A.owner.browser.run(() => deleteAlertRuleAction({ ruleId })));
      else ok(await A.owner.browser.run(() => updateAlertRuleAction({ ruleId, rule: visibilityRule(A.brandId, "Edited", { minChange: 0.5 }) })));
      gate.open();
      const outcome = (await evaluation).find((r) => r.ruleId === ruleId)!.outcome;
      expect(outcome.fired).toBe(0);
      expect(await db().alertFiring.count({ where: { ruleId } })).toBe(0);
      // The edited rule starts over: the evaluation's result is not written over its reset.
      if (change === "edit") expect((await db().alertRule.findUniqueOrThrow({ where: { id: ruleId } })).lastResult).toBeNull();
      await db().alertRule.deleteMany({ where: { id: ruleId } });
    }
  });

  it("a rule edited or disabled while an evaluation's firing is being stored: the firing waits for the change, then is not stored", async () => {
    for (const change of ["disable", "edit"] as const) {
      const ruleId = await addRule(A, visibilityRule(A.brandId, `Changing: ${change}`));
      // The worst moment: the change is written and not committed when the evaluation, which read the rule before it, fires.
      const gate = gateAt("alert:rule-change-before-commit", (c) => c.ruleId === ruleId);
      const changed =
        change === "disable"
          ? A.owner.browser.run(() => setAlertRuleEnabledAction({ ruleId, enabled: false })).then(ok)
          : A.owner.browser.run(() => updateAlertRuleAction({ ruleId, rule: visibilityRule(A.brandId, "Edited", { minChange: 0.5 }) })).then(ok);
      await gate.reached;
      const evaluation = evaluateAlerts(A.workspaceId, { now: NOW });
      // Guarded, the firing waits on the rule's row; unguarded, it is stored beside the uncommitted change.
      await Promise.race([evaluation, waitForLockWaiter()]);
      gate.open();
      await changed;
      expect(resultOf(await evaluation, ruleId).fired).toBe(0);
      expect(await db().alertFiring.count({ where: { ruleId } })).toBe(0);
      expect(await db().alertDelivery.count({ where: { firing: { ruleId } } })).toBe(0);
      await db().alertRule.deleteMany({ where: { id: ruleId } });
    }
  });

  it("an evaluation that finishes after a later one does not write its older result over the later one's", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Two evaluations"));
    const later = new Date(NOW.getTime() + 60_000);
    // The earlier evaluation is held after judging; a later one (another reason's job) runs whole meanwhile.
    const gate = gateAt("alert:before-fire", (c) => c.ruleId === ruleId);
    const earlier = evaluateAlerts(A.workspaceId, { now: NOW });
    await gate.reached;
    await evaluateAlerts(A.workspaceId, { now: later });
    gate.open();
    await earlier;
    expect((await db().alertRule.findUniqueOrThrow({ where: { id: ruleId } })).lastEvaluatedAt).toEqual(later);
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("a rule edited to watch something else fires again on the evidence it fired on before; a rename does not", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Edited later"));
    expect(resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ruleId).fired).toBe(1);
    ok(await A.owner.browser.run(() => updateAlertRuleAction({ ruleId, rule: visibilityRule(A.brandId, "Renamed") })));
    expect(resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ruleId).fired).toBe(0);
    ok(await A.owner.browser.run(() => updateAlertRuleAction({ ruleId, rule: visibilityRule(A.brandId, "Renamed", { minChange: 0.1 }) })));
    expect(resultOf(await evaluateAlerts(A.workspaceId, { now: NOW }), ruleId).fired).toBe(1);
    // Both firings stay in the rule's history.
    expect(await firingsOf(ruleId)).toHaveLength(2);
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("a disabled rule is not evaluated", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Off"));
    ok(await A.owner.browser.run(() => setAlertRuleEnabledAction({ ruleId, enabled: false })));
    expect((await evaluateAlerts(A.workspaceId, { now: NOW })).map((r) => r.ruleId)).not.toContain(ruleId);
    expect(await firingsOf(ruleId)).toHaveLength(0);
    ok(await A.owner.browser.run(() => deleteAlertRuleAction({ ruleId })));
  });
});

describe("a competitor overtook the brand on a prompt", () => {
  it("fires where the competitor now comes first beyond noise, not where it is close", async () => {
    const w = await buildWorld("Alerts overtaken");
    // Prompt 0, before: Acme first in 10 answers, Rival in 5. Now: Acme 3, Rival 12 (sign test p = 0.0176).
    // Prompt 1, before: Acme 8, Rival 4. Now: Acme 6, Rival 7 (p = 0.5: noise).
    const answers = (day: string, prompt: number, acme: number, rival: number): Answer[] => [
      ...Array.from({ length: acme }, () => ({ day, prompt, brand: 1, rival: 2 })),
      ...Array.from({ length: rival }, (_, i) => ({ day, prompt, rival: 1, brand: i % 2 ? 2 : null })),
      { day, prompt, brand: null, rival: null },
    ];
    await writeAnswers(w, [...answers(PREVIOUS_DAY, 0, 10, 5), ...answers(CURRENT_DAY, 0, 3, 12), ...answers(PREVIOUS_DAY, 1, 8, 4), ...answers(CURRENT_DAY, 1, 6, 7)]);
    const ruleId = await addRule(w, { name: "Overtaken", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7 } });
    const outcome = resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId);
    expect(outcome).toMatchObject({ status: "fired", fired: 1 });
    const [firing] = await firingsOf(ruleId);
    expect(firing!.title).toBe("Rival overtook Acme on “Best anvil?”");
    const facts = firing!.facts as Facts;
    expect(facts.p).toBeCloseTo(576 / 32768, 10);
    expect(facts.current).toMatchObject({ brandFirst: 3, rivalFirst: 12, answers: 16 });
    expect(facts.previous).toMatchObject({ brandFirst: 10, rivalFirst: 5, answers: 16 });
  });

  it("a brand edited after the first of a verdict's findings was stored: the others fire too (the judge read the history before the edit)", async () => {
    const w = await buildWorld("Alerts overtaken twice");
    const overtaken = (day: string, prompt: number, acme: number, rival: number): Answer[] => [
      ...Array.from({ length: acme }, () => ({ day, prompt, brand: 1, rival: 2 })),
      ...Array.from({ length: rival }, () => ({ day, prompt, rival: 1, brand: 2 })),
    ];
    await writeAnswers(w, [0, 1].flatMap((prompt) => [...overtaken(PREVIOUS_DAY, prompt, 10, 5), ...overtaken(CURRENT_DAY, prompt, 3, 12)]));
    const ruleId = await addRule(w, { name: "Overtaken twice", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7 } });
    // The first finding is stored; the edit commits before the second is.
    let fires = 0;
    const gate = gateAt("alert:before-fire", (c) => c.ruleId === ruleId && ++fires === 2);
    const evaluation = evaluateAlerts(w.workspaceId, { now: NOW });
    await gate.reached;
    await updateBrand(w.workspaceId, w.brandId, brandInputSchema.parse({ name: "Acme", aliases: ["Acme Inc"], domains: ["acme.com"], competitors: [{ id: w.rivalId, name: "Rival" }] }));
    gate.open();
    expect(resultOf(await evaluation, ruleId)).toMatchObject({ status: "fired", fired: 2 });
    expect(await firingsOf(ruleId)).toHaveLength(2);
  });
});

describe("a competitor a rule watches is removed from the brand", () => {
  it("the rule stops naming it; one left watching none is switched off saying why, not told all is well", async () => {
    const w = await buildWorld("Alerts removed rival");
    const other = await db().competitor.create({ data: { workspaceId: w.workspaceId, brandId: w.brandId, name: "Other" } });
    const both = await addRule(w, { name: "Rival or Other", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7, competitorIds: [w.rivalId, other.id] } });
    const rivalOnly = await addRule(w, { name: "Rival only", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7, competitorIds: [w.rivalId] } });

    await updateBrand(w.workspaceId, w.brandId, brandInputSchema.parse({ name: "Acme", domains: ["acme.com"], competitors: [{ id: other.id, name: "Other" }] }));

    const [kept, off] = await Promise.all([both, rivalOnly].map((id) => db().alertRule.findUniqueOrThrow({ where: { id } })));
    expect(kept).toMatchObject({ enabled: true, params: { windowDays: 7, competitorIds: [other.id] } });
    expect(off).toMatchObject({ enabled: false, params: { competitorIds: [] }, lastResult: { status: "error", message: expect.stringMatching(/competitors it watched were removed/) } });
    // Off, it is not judged (it said "still comes first on every prompt" before, watching nothing).
    expect((await evaluateAlerts(w.workspaceId, { now: NOW })).map((r) => r.ruleId)).not.toContain(rivalOnly);

    // Switched on as it is, it would watch every competitor (an empty list means all): refused
    // until it is edited, which picks its competitors (none is then a choice).
    await expect(setRuleEnabled(w.workspaceId, rivalOnly, true)).rejects.toThrow(/Edit it to pick the competitors/);
    expect(await db().alertRule.findUniqueOrThrow({ where: { id: rivalOnly } })).toMatchObject({ enabled: false, params: { competitorIds: [] } });
    await updateRule(w.workspaceId, rivalOnly, ruleInputSchema.parse({ name: "Every competitor", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7, competitorIds: [] }, enabled: false }));
    await setRuleEnabled(w.workspaceId, rivalOnly, true);
    expect(await db().alertRule.findUniqueOrThrow({ where: { id: rivalOnly } })).toMatchObject({ enabled: true });
  });

  it("a rule saved while its competitor was being removed (the cleanup did not see it) says so when judged, not that all is well", async () => {
    const w = await buildWorld("Alerts raced rival");
    const ruleId = await addRule(w, { name: "Raced rival", kind: "competitor_overtook", brandId: w.brandId, params: { windowDays: 7, competitorIds: [w.rivalId] } });
    await db().competitor.delete({ where: { id: w.rivalId } });
    const outcome = resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId);
    expect(outcome).toMatchObject({ status: "error", fired: 0 });
    expect(outcome.message).toMatch(/competitors it watches were removed/);
  });
});

describe("one of the brand's pages stopped being cited", () => {
  it("fires when the silence is beyond chance, not when the answers are too few to tell", async () => {
    const w = await buildWorld("Alerts pages");
    // Pricing: cited in 10 of 40 answers before, none of 40 since: 0.75^40 = 1e-5.
    // About: cited in 3 of 40 before, none of 40 since: 0.925^40 = 0.044 at 99 % is chance.
    const before: Answer[] = Array.from({ length: 40 }, (_, i) => ({
      day: PREVIOUS_DAY, brand: 1,
      cites: [...(i < 10 ? ["https://acme.com/pricing"] : []), ...(i >= 37 ? ["https://acme.com/about"] : []), "https://acme.com/"],
    }));
    const after: Answer[] = Array.from({ length: 40 }, () => ({ day: CURRENT_DAY, brand: 1, cites: ["https://acme.com/"] }));
    await writeAnswers(w, [...before, ...after]);
    const ruleId = await addRule(w, { name: "Pages", kind: "own_page_dropped", brandId: w.brandId, params: { windowDays: 7, confidence: 0.99 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 1 });
    const firings = await firingsOf(ruleId);
    expect(firings.map((f) => f.title)).toEqual(["https://acme.com/pricing is no longer cited"]);
    expect((firings[0]!.facts as Facts).p).toBeCloseTo(0.75 ** 40, 12);
  });
});

describe("an AI crawler stopped visiting", () => {
  // NOW's periods, whole days (today, 06-15, is not over): 06-01..06-07 before, 06-08..06-14 since.
  const hits = (crawler: string, days: string[], hour = "09") => days.map((day) => ({ at: new Date(`${day}T${hour}:00:00Z`), domain: "acme.com", path: "/", crawler, verification: "unchecked" as const, status: 200 }));
  const before = ["2025-06-01", "2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06", "2025-06-07"];

  it("fires for a daily crawler gone silent on the days the logs cover, not for a rare one", async () => {
    const w = await buildWorld("Alerts crawlers");
    // GPTBot: 7 of 7 days before, none of the 3 covered since (chance 0). ClaudeBot: 1 of 7, none since: (6/7)^3 = 0.63.
    await storeHits(w.workspaceId, [...hits("GPTBot", before), ...hits("ClaudeBot", ["2025-06-05"]), ...hits("PerplexityBot", ["2025-06-03", "2025-06-10", "2025-06-12", "2025-06-14"])]);
    const ruleId = await addRule(w, { name: "Crawlers", kind: "crawler_stopped", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 1 });
    const firings = await firingsOf(ruleId);
    expect(firings.map((f) => f.title)).toEqual(["GPTBot stopped visiting"]);
    expect(firings[0]!.facts).toMatchObject({ p: 0, previous: { days: 7, covered: 7 }, current: { days: 0, covered: 3 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ fired: 0 });
  });

  it("counts only today's own sites: the crawls of a domain the brand dropped are not a crawler gone", async () => {
    const w = await buildWorld("Alerts crawlers dropped domain");
    const on = (domain: string, crawler: string, days: string[]) => hits(crawler, days).map((h) => ({ ...h, domain }));
    // GPTBot came daily to a site the brand listed then (stored then), and never to acme.com.
    await storeHits(w.workspaceId, [...on("sold-site.com", "GPTBot", before), ...hits("PerplexityBot", ["2025-06-03", "2025-06-10", "2025-06-12"])]);
    const ruleId = await addRule(w, { name: "Crawlers", kind: "crawler_stopped", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "quiet", fired: 0 });
  });

  it("counts whole days only: a crawler not seen yet today, in a log imported this morning, has not stopped", async () => {
    const w = await buildWorld("Alerts crawlers today");
    // GPTBot came every day; this morning's log (06-15, to 01:00) has PerplexityBot and no GPTBot yet.
    await storeHits(w.workspaceId, [...hits("GPTBot", ["2025-06-12", "2025-06-13", "2025-06-14"]), ...hits("PerplexityBot", ["2025-06-15"], "01")]);
    const ruleId = await addRule(w, { name: "Crawlers", kind: "crawler_stopped", params: { windowDays: 1, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "quiet", fired: 0 });
  });

  it("says nothing while no log covers the last days: a log not imported yet is not silence", async () => {
    const w = await buildWorld("Alerts crawlers unimported");
    await storeHits(w.workspaceId, hits("GPTBot", before));
    const ruleId = await addRule(w, { name: "Crawlers", kind: "crawler_stopped", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "too_few_answers", fired: 0, message: expect.stringMatching(/No imported access log covers the last 7 days/) });
  });
});

describe("AI visits changed beyond noise", () => {
  const visits = (workspaceId: string, assistant: string, day: string, n: number) => ({ workspaceId, day: new Date(day), domain: "acme.com", path: "/", assistant, visits: n });
  /** The workspace's site key as made at `at`, its first one. */
  const keyMadeAt = (workspaceId: string, at: Date) => db().trafficSiteKey.update({ where: { workspaceId }, data: { createdAt: at, firstCreatedAt: at } });

  it("fires for a fall beyond noise, in all and per assistant, not for one within it", async () => {
    const w = await buildWorld("Alerts visits");
    await rotateSiteKey(w.workspaceId, null);
    await keyMadeAt(w.workspaceId, new Date("2025-05-01T00:00:00Z"));
    // ChatGPT 40 -> 10 (p < 1e-5); Perplexity 5 -> 3 (p = 0.73); in all 45 -> 13.
    await db().trafficVisitDaily.createMany({
      data: [visits(w.workspaceId, "ChatGPT", PREVIOUS_DAY, 40), visits(w.workspaceId, "ChatGPT", CURRENT_DAY, 10), visits(w.workspaceId, "Perplexity", PREVIOUS_DAY, 5), visits(w.workspaceId, "Perplexity", CURRENT_DAY, 3)],
    });
    const ruleId = await addRule(w, { name: "Visits", kind: "visits_changed", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 2 });
    const firings = await firingsOf(ruleId);
    expect(firings.map((f) => f.title).sort()).toEqual(["AI visits fell from 45 to 13", "Visits from ChatGPT fell from 40 to 10"]);
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ fired: 0 });
  });

  it("counts only today's own sites: the visits of a domain the brand dropped are not a fall", async () => {
    const w = await buildWorld("Alerts visits dropped domain");
    await rotateSiteKey(w.workspaceId, null);
    await keyMadeAt(w.workspaceId, new Date("2025-05-01T00:00:00Z"));
    await db().trafficVisitDaily.createMany({
      data: [{ ...visits(w.workspaceId, "ChatGPT", PREVIOUS_DAY, 40), domain: "sold-site.com" }, visits(w.workspaceId, "ChatGPT", PREVIOUS_DAY, 10), visits(w.workspaceId, "ChatGPT", CURRENT_DAY, 10)],
    });
    const ruleId = await addRule(w, { name: "Visits", kind: "visits_changed", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "quiet", fired: 0 });
  });

  it("counts whole days only: today's visits so far are not a day's, so a steady rate is not a fall", async () => {
    const w = await buildWorld("Alerts visits today");
    await rotateSiteKey(w.workspaceId, null);
    await keyMadeAt(w.workspaceId, new Date("2025-05-01T00:00:00Z"));
    // 100 a day; by NOW (noon) today has 50.
    await db().trafficVisitDaily.createMany({
      data: [visits(w.workspaceId, "ChatGPT", "2025-06-13", 100), visits(w.workspaceId, "ChatGPT", "2025-06-14", 100), visits(w.workspaceId, "ChatGPT", "2025-06-15", 50)],
    });
    const ruleId = await addRule(w, { name: "Visits", kind: "visits_changed", params: { windowDays: 1, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "quiet", fired: 0 });
  });

  it("goes on judging after the key is rotated: a site still sending the old key makes visits fall, and that fires", async () => {
    const w = await buildWorld("Alerts visits rotated key");
    const first = await rotateSiteKey(w.workspaceId, null);
    await keyMadeAt(w.workspaceId, new Date("2025-05-01T00:00:00Z"));
    // Rotated (by the database's clock, after both periods); the site keeps the old key: no visit since.
    const rotated = await rotateSiteKey(w.workspaceId, first.key);
    expect(rotated.changed).toBe(true);
    expect(rotated.createdAt.getTime()).toBeGreaterThan(NOW.getTime());
    await db().trafficVisitDaily.createMany({ data: [visits(w.workspaceId, "ChatGPT", PREVIOUS_DAY, 40)] });
    const ruleId = await addRule(w, { name: "Visits", kind: "visits_changed", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 2 });
    expect((await firingsOf(ruleId)).map((f) => f.title).sort()).toEqual(["AI visits fell from 40 to 0", "Visits from ChatGPT fell from 40 to 0"]);
  });

  it("waits until the site key is older than both periods", async () => {
    const w = await buildWorld("Alerts visits new key");
    await rotateSiteKey(w.workspaceId, null);
    await keyMadeAt(w.workspaceId, new Date("2025-06-05T00:00:00Z"));
    await db().trafficVisitDaily.createMany({ data: [visits(w.workspaceId, "ChatGPT", CURRENT_DAY, 40)] });
    const ruleId = await addRule(w, { name: "Visits", kind: "visits_changed", params: { windowDays: 7, confidence: 0.95 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "too_few_answers", fired: 0 });
  });
});

describe("a brand not yet tracked is named often", () => {
  it("fires for a name whose share is above the threshold beyond noise, not for one that is above it by chance", async () => {
    const w = await buildWorld("Alerts discovery");
    // 100 answers this week: Attio in 40 (interval 31-50 %), Zoho CRM in 14 (8.5-22 %: could be
    // under 10 %), Folk in 8. The threshold is 10 %.
    const text = (i: number) =>
      ["1. **Acme**: solid.", i < 40 ? "2. **Attio**: modern." : "", i >= 40 && i < 54 ? "3. **Zoho CRM**: cheap." : "", i >= 54 && i < 62 ? "4. **Folk**: light." : ""]
        .filter(Boolean)
        .join("\n");
    await writeAnswers(w, Array.from({ length: 100 }, (_, i) => ({ day: CURRENT_DAY, brand: 1, text: text(i) })));
    const ruleId = await addRule(w, { name: "New names", kind: "new_brand", brandId: w.brandId, params: { thresholdPercent: 10 } });
    expect(resultOf(await evaluateAlerts(w.workspaceId, { now: NOW }), ruleId)).toMatchObject({ status: "fired", fired: 1 });
    const [firing, ...others] = await firingsOf(ruleId);
    expect(others).toHaveLength(0);
    expect(firing!.title).toBe("Attio is named in 40 % of answers and is not tracked");
    expect(firing!.facts).toMatchObject({ name: "Attio", answers: 40, n: 100, thresholdPercent: 10 });
    expect((firing!.facts as { share: { low: number } }).share.low).toBeCloseTo(0.3094, 3);
  });
});

describe("workspace rules: budget and breakers", () => {
  it("the budget: each threshold fires once a month, and again for a raised budget", async () => {
    const w = await buildWorld("Alerts budget");
    await db().workspace.update({ where: { id: w.workspaceId }, data: { monthlyBudgetMicros: 10_000_000n } });
    const ruleId = await addRule(w, { name: "Budget", kind: "budget", params: { thresholds: [100, 80] } });
    const [{ period }] = await db().$queryRaw<[{ period: Date }]>`SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS period`;
    await db().$executeRaw`INSERT INTO budget_periods ("workspaceId", "periodStart", shard, "chargedMicros") VALUES (${w.workspaceId}::uuid, ${period}::date, 0, 8500000)`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ status: "fired", fired: 1 });
    expect((await firingsOf(ruleId)).map((f) => f.title)).toEqual(["The month's spend passed 80 % of the budget"]);
    await db().$executeRaw`UPDATE budget_periods SET "chargedMicros" = 10000000 WHERE "workspaceId" = ${w.workspaceId}::uuid`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 1 });
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 0 });
    expect((await firingsOf(ruleId)).map((f) => f.title)).toEqual(["The month's spend passed 80 % of the budget", expect.stringMatching(/^The month's budget is spent: \$10\.00 of \$10\.00/)]);

    // The admin raises the budget to $20; when that is spent too, the rule says so again.
    await db().workspace.update({ where: { id: w.workspaceId }, data: { monthlyBudgetMicros: 20_000_000n } });
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 0 });
    await db().$executeRaw`UPDATE budget_periods SET "chargedMicros" = 20000000 WHERE "workspaceId" = ${w.workspaceId}::uuid`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 2 });
    expect((await firingsOf(ruleId)).map((f) => f.title).slice(2).sort()).toEqual([expect.stringMatching(/^The month's budget is spent: \$20\.00 of \$20\.00/), "The month's spend passed 80 % of the budget"]);
  });

  it("a budget rule needs a budget", async () => {
    const w = await buildWorld("Alerts no budget");
    const result = await w.owner.browser.run(() => createAlertRuleAction({ name: "Budget", kind: "budget", params: {} }));
    expectFieldError(result, "kind", /no monthly budget/);
    expect(await db().alertRule.count({ where: { workspaceId: w.workspaceId } })).toBe(0);
  });

  it("a breaker open over the rule's minutes fires once per opening; one an operator holds open does not", async () => {
    const w = await buildWorld("Alerts breaker");
    const ruleId = await addRule(w, { name: "Breaker", kind: "breaker_open", params: { minutes: 5 } });
    await db().$executeRaw`
      INSERT INTO breaker_states ("connectionId", model, status, "openedAt", "openUntil")
      VALUES (${w.connectionId}::uuid, ${w.model}, 'open', (now() AT TIME ZONE 'UTC') - interval '4 minutes', (now() AT TIME ZONE 'UTC') + interval '1 minute')`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 0 });
    await db().$executeRaw`UPDATE breaker_states SET "openedAt" = "openedAt" - interval '2 minutes' WHERE "connectionId" = ${w.connectionId}::uuid AND model = ${w.model}`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ status: "fired", fired: 1 });
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 0 });
    expect((await firingsOf(ruleId))[0]!.title).toBe("Alpha: the breaker has been open for 6 minutes");
    // A workspace calling the same connection with another model has another breaker.
    const other = await addRule(B, { name: "Breaker", kind: "breaker_open", params: { minutes: 5 } });
    expect(resultOf(await evaluateAlerts(B.workspaceId), other)).toMatchObject({ fired: 0 });
    await db().$executeRaw`UPDATE breaker_states SET "forcedStatus" = 'open', "openedAt" = (now() AT TIME ZONE 'UTC') - interval '1 hour' WHERE "connectionId" = ${w.connectionId}::uuid`;
    expect(resultOf(await evaluateAlerts(w.workspaceId), ruleId)).toMatchObject({ fired: 0 });
    await db().$executeRaw`DELETE FROM breaker_states WHERE "connectionId" = ${w.connectionId}::uuid AND model = ${w.model}`;
  });
});

describe("who may change rules, and what they may name", () => {
  it("members and viewers see rules and firings but cannot create or delete them", async () => {
    const ruleId = await addRule(A, visibilityRule(A.brandId, "Kept"));
    for (const role of ["member", "viewer"] as const) {
      const person = await join(A.owner, role);
      refused(await person.browser.run(() => createAlertRuleAction(visibilityRule(A.brandId))), "forbidden");
      refused(await person.browser.run(() => deleteAlertRuleAction({ ruleId })), "forbidden");
      expect(ok(await person.browser.run(() => listAlertRulesAction())).map((r) => r.id)).toContain(ruleId);
      ok(await person.browser.run(() => listAlertFiringsAction({})));
    }
    await db().alertRule.delete({ where: { id: ruleId } });
  });

  it("another workspace's brand, competitor, provider or rule is not found, and nothing is created", async () => {
    const before = await db().alertRule.count();
    expectFieldError(await A.owner.browser.run(() => createAlertRuleAction(visibilityRule(B.brandId))), "brandId", /does not exist/);
    expectFieldError(
      await A.owner.browser.run(() => createAlertRuleAction({ name: "x", kind: "competitor_overtook", brandId: A.brandId, params: { competitorIds: [B.rivalId] } })),
      "params.competitorIds",
      /not competitors of that brand/,
    );
    expectFieldError(
      await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId), params: { metric: "visibility" as const, providerConfigIds: [B.providerId] } })),
      "params.providerConfigIds",
      /do not exist/,
    );
    expectFieldError(await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId), channelIds: [randomUUID()] })), "channelIds", /do not exist/);
    const foreign = await addRule(B, visibilityRule(B.brandId, "B's"));
    refused(await A.owner.browser.run(() => deleteAlertRuleAction({ ruleId: foreign })), "not_found");
    refused(await A.owner.browser.run(() => setAlertRuleEnabledAction({ ruleId: foreign, enabled: false })), "not_found");
    expect(await db().alertRule.count()).toBe(before + 1);
    await db().alertRule.delete({ where: { id: foreign } });
  });

  it("a channel deleted between the form's check of its references and the rule's insert: a clear refusal, not an unexpected error, and no rule", async () => {
    const channel = await db().alertChannel.create({ data: { workspaceId: A.workspaceId, name: "Gone soon", kind: "email", config: { to: ["gone@example.com"] } } });
    const before = await db().alertRule.count({ where: { workspaceId: A.workspaceId } });
    const off = onPausePoint("alert:references-validated", async () => void (await db().alertChannel.deleteMany({ where: { id: channel.id } })));
    try {
      const error = refused(await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId, "Raced"), channelIds: [channel.id] })), "conflict");
      expect(error.message).toMatch(/deleted meanwhile/);
    } finally {
      off();
    }
    expect(await db().alertRule.count({ where: { workspaceId: A.workspaceId } })).toBe(before);
  });

  it("bad parameters get a clear message", async () => {
    expectFieldError(
      await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId), params: { metric: "visibility" as const, windowDays: 400 } })),
      "params.windowDays",
      /at most 90 days/,
    );
    expectFieldError(
      await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId), params: { metric: "visibility" as const, minChange: 5 } })),
      "params.minChange",
      /fraction/,
    );
    expectFieldError(await A.owner.browser.run(() => createAlertRuleAction({ ...visibilityRule(A.brandId), name: "" })), "name", /Enter a name/);
  });
});

describe("a finished check asks for an evaluation", () => {
  const evaluationJobs = (workspaceId: string) =>
    db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'evaluate_alerts' AND key = ${`alerts:${workspaceId}:check`}`.then((r) => r[0]!.n);

  async function finishedCheck(w: World): Promise<void> {
    const check = await db().check.create({ data: { workspaceId: w.workspaceId, brandId: w.brandId, totalCaptures: 1, status: "running" } });
    await db().capture.create({
      data: {
        workspaceId: w.workspaceId, checkId: check.id, brandId: w.brandId, promptId: w.promptIds[0]!, providerConfigId: w.providerId, connectionId: w.connectionId,
        sample: 1, status: "succeeded", maxAttempts: 3, attemptCount: 1, model: "m", searchMode: "auto", answerText: "x", finishedAt: new Date(),
      },
    });
    await finishCheckIfDone(check.id);
    expect((await db().check.findUniqueOrThrow({ where: { id: check.id } })).finishedAt).not.toBeNull();
  }

  it("in the same transaction as the check's end, only for a workspace with rules", async () => {
    const w = await buildWorld("Alerts check");
    await finishedCheck(w);
    expect(await evaluationJobs(w.workspaceId)).toBe(0);
    await addRule(w, visibilityRule(w.brandId));
    await finishedCheck(w);
    expect(await evaluationJobs(w.workspaceId)).toBe(1);
  });
});

describe("the clock", () => {
  it("takes the period, its index and the evaluation time from the database's clock, not the worker's", async () => {
    const w = await buildWorld("Alerts clock");
    const [{ now: dbNow }] = await db().$queryRaw<[{ now: Date }]>`SELECT now() AS now`;
    const day = (offsetDays: number) => new Date(dbNow.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    await writeAnswers(w, [...visibility(day(-7), 40, 100), ...visibility(day(0), 60, 100)]);
    const ruleId = await addRule(w, visibilityRule(w.brandId));
    // The worker's clock 400 days ahead of the database's (a host whose clock drifted or was set wrong).
    vi.useFakeTimers({ toFake: ["Date"], now: dbNow.getTime() + 400 * 86_400_000 });
    let outcome;
    try {
      outcome = resultOf(await evaluateAlerts(w.workspaceId), ruleId);
    } finally {
      vi.useRealTimers();
    }
    expect(outcome).toMatchObject({ status: "fired", fired: 1 });
    const { index } = periods(dbNow, 7);
    const [firing] = await firingsOf(ruleId);
    expect(firing!.dedupeKey).toBe(`visibility:7:${index}`);
    expect((firing!.facts as Facts).current).toMatchObject({ to: day(1) });
    const rule = await db().alertRule.findUniqueOrThrow({ where: { id: ruleId } });
    expect(Math.abs(rule.lastEvaluatedAt!.getTime() - dbNow.getTime())).toBeLessThan(60_000);
    expect(Math.abs(new Date(outcome.at).getTime() - dbNow.getTime())).toBeLessThan(60_000);
  });
});
