// The success path of a capture (issue 17): a worker's run in this process, held after the
// provider answered (pause point call:after-provider) while a brand edit or a cancel lands, and
// results whose write fails after the provider was paid. Real PostgreSQL, the real worker code,
// the OpenAI adapter against a local fake server (real HTTP). Every paid answer is stored once,
// from one provider call; its analysis follows the brand's current inputs.
import { describe, expect, it } from "vitest";
import { OPENAI_ANSWER } from "../support/fake-providers/openai-server";
import { budgetNow, captureRow, expectBudgetConsistent, inProcessRunner, newSpace, type Space, startSpaceCheck } from "../support/lifecycle-fixtures";
import { actAt, gateAt } from "../support/pause";
import { runReanalysis } from "@/lib/brands/reanalysis";
import { recordRollups } from "@/lib/analytics/rollups";
import { costOf, worstCaseCost } from "@/lib/billing/money";
import { updateBrand } from "@/lib/brands/brands";
import { brandInputSchema } from "@/lib/brands/schemas";
import { cancelCapture } from "@/lib/checks/cancel-retry";
import { db } from "@/lib/db/prisma";
import { adapterFor } from "@/lib/providers/registry";
import { cancelCheckNow } from "../support/check-fixtures";

// Before anything reads env(): the OpenAI adapter talks to the local server, and a result that
// cannot be written is given up after 10 s (a run that loops to the deadline shows here).
process.env.BEACON_RESULT_WRITE_TIMEOUT_SECONDS = "10";
process.env.OPENAI_API_KEY = "sk-test-succeed";
const warnings: string[] = [];
const runner = inProcessRunner({ warn: (line) => warnings.push(line) });
const { run } = runner;

/** A space whose brand (Acme) tracks these competitors, with checks on the fake OpenAI. */
async function spaceTracking(competitors: string[]): Promise<Space & { brandId: string }> {
  const space = await newSpace({ prompts: 3 });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
  await setCompetitors(space.workspaceId, brand.id, competitors);
  return { ...space, brandId: brand.id };
}

/** Saves the brand with exactly these competitors (kept ones by id), as the brand form does. */
async function setCompetitors(workspaceId: string, brandId: string, names: string[]) {
  const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });
  const competitors = names.map((name) => ({ id: brand.competitors.find((c) => c.name === name)?.id, name }));
  await updateBrand(workspaceId, brandId, brandInputSchema.parse({ name: brand.name, aliases: brand.aliases, domains: brand.domains, competitors }));
}

/** Runs the brand's waiting re-analysis jobs, as a worker would, until none is left. */
async function drainReanalysis(brandId: string) {
  for (let round = 0; round < 10; round++) {
    const jobs = await db().$queryRaw<{ id: bigint; runId: string }[]>`
      SELECT v.id, j.payload->>'analysisRunId' AS "runId" FROM graphile_worker.jobs v JOIN graphile_worker._private_jobs j ON j.id = v.id
      WHERE v.task_identifier = 'reanalyze' AND v.queue_name = ${`reanalyze:${brandId}`} ORDER BY v.id`;
    if (!jobs.length) return;
    for (const job of jobs) {
      await runReanalysis(job.runId);
      await db().$executeRaw`SELECT graphile_worker.complete_jobs(ARRAY[${job.id}]::bigint[])`;
    }
  }
  throw new Error("re-analysis kept queueing itself");
}

/** Mentioned entities of a capture, by name. */
async function mentioned(captureId: string) {
  const rows = await db().mention.findMany({ where: { captureId, mentioned: true }, orderBy: { name: "asc" } });
  return rows.map((m) => m.name);
}

const ROLLUP_TABLES = ["rollup_answers", "rollup_mentions", "rollup_citations", "rollup_domains", "rollup_tag_domains"] as const;

async function rollupRows(brandId: string) {
  const out: Record<string, unknown[]> = {};
  for (const table of ROLLUP_TABLES) out[table] = await db().$queryRawUnsafe(`SELECT * FROM ${table} WHERE "brandId" = $1::uuid ORDER BY 1, 2, 3, 4, 5, 6`, brandId);
  return out;
}

/** The brand's rollups as kept equal the rollups rebuilt from its raw rows (rollups.test.ts). */
async function expectRollupsAsIfRebuilt(brandId: string) {
  const kept = await rollupRows(brandId);
  await db().$transaction(async (tx) => {
    for (const table of ROLLUP_TABLES) await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE "brandId" = $1::uuid`, brandId);
    const ids = await tx.capture.findMany({ where: { brandId }, select: { id: true } });
    await recordRollups(tx, ids.map((c) => c.id));
  });
  expect(kept).toEqual(await rollupRows(brandId));
}

describe("a competitor removed while its captures run (defect 1)", () => {
  it("stores the paid answer once, from one call, and the analysis follows the brand as it is now", async () => {
    const space = await spaceTracking(["HubSpot", "Pipedrive"]);
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const calls = runner.openai.requests.length;
    const held = gateAt("call:after-provider", (c) => c.captureId === captureId);
    const running = run(captureId);
    await held.reached;
    await setCompetitors(space.workspaceId, space.brandId, ["HubSpot"]);
    held.open();

    expect(await running).toBe("succeeded");
    expect(runner.openai.requests.length - calls, "one provider call").toBe(1);
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", answerText: OPENAI_ANSWER.text, answerIsPartial: false });
    expect(capture.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("completed");
    expect(await mentioned(captureId)).toEqual(["Acme", "HubSpot"].filter((n) => OPENAI_ANSWER.text.includes(n)));
    await expectBudgetConsistent(space.workspaceId);

    await drainReanalysis(space.brandId);
    const rows = await db().mention.findMany({ where: { captureId } });
    expect(rows.map((m) => m.name).sort(), "analysed against the brand's competitors now").toEqual(["Acme", "HubSpot"]);
    await expectRollupsAsIfRebuilt(space.brandId);
  });
});

describe("an edit that does not change a recorded answer's analysis", () => {
  it("leaves the rows its success wrote as they are: a re-analysis compares what a worker stored with what it would write", async () => {
    const space = await spaceTracking(["HubSpot", "Pipedrive"]);
    await db().brand.update({ where: { id: space.brandId }, data: { domains: ["pipedrive.com"] } }); // a citation of its own
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    expect(await run(captureId)).toBe("succeeded");
    const rows = async () => ({
      mentions: await db().mention.findMany({ where: { captureId }, orderBy: { id: "asc" } }),
      candidates: await db().captureCandidate.findMany({ where: { captureId }, orderBy: { key: "asc" } }),
      citations: await db().citation.findMany({ where: { captureId }, orderBy: { id: "asc" } }),
    });
    const before = await rows();
    expect(before.citations.filter((c) => c.isOwnDomain).map((c) => c.domain)).toEqual(["pipedrive.com"]);

    // An alias no answer uses: the brand's version goes up, every answer is to do, none changes.
    const brand = await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, include: { competitors: true } });
    await updateBrand(
      space.workspaceId,
      brand.id,
      brandInputSchema.parse({ name: brand.name, aliases: [...brand.aliases, "Nowhere Named"], domains: brand.domains, competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name })) }),
    );
    await drainReanalysis(space.brandId);

    expect(await rows()).toEqual(before);
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: brand.id } });
    expect((await captureRow(captureId)).analysisVersion).toBe(analysisVersion);
    await expectRollupsAsIfRebuilt(space.brandId);
  });
});

describe("a result write that fails for good (defect 1)", () => {
  it("is not retried as a blip: the answer is stored without its analysis, which a re-analysis then writes", async () => {
    const space = await spaceTracking(["HubSpot"]);
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const calls = runner.openai.requests.length;
    // A data exception (22012) inside the success's statement: permanent, whatever it is.
    const writes = actAt("succeed:before-commit", async ({ tx }) => {
      await tx!.$queryRaw`SELECT 1 / 0`;
    });
    expect(await run(captureId)).toBe("succeeded");
    expect(writes()).toBe(1);
    expect(runner.openai.requests.length - calls).toBe(1);
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", answerText: OPENAI_ANSWER.text, analyzedAt: null });
    expect(capture.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    expect(await db().mention.count({ where: { captureId } }), "no analysis yet").toBe(0);
    // What the provider returned beside the answer is kept with it: re-analysis cannot rebuild it.
    expect((await db().citation.findMany({ where: { captureId }, select: { domain: true } })).map((c) => c.domain)).toEqual(expect.arrayContaining(["hubspot.com", "pipedrive.com"]));
    expect(await db().searchQuery.count({ where: { captureId } })).toBeGreaterThan(0);
    await expectBudgetConsistent(space.workspaceId);

    await drainReanalysis(space.brandId);
    expect(await mentioned(captureId)).toEqual(["HubSpot"]);
    expect((await captureRow(captureId)).analyzedAt).not.toBeNull();
    await expectRollupsAsIfRebuilt(space.brandId);
  });

  it("gives up loudly after storing the answer alone failed too: three writes, no second call, the capture failed and charged once", async () => {
    const space = await spaceTracking([]);
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const calls = runner.openai.requests.length;
    const writes = actAt("succeed:before-commit", async ({ tx }) => {
      await tx!.$queryRaw`SELECT 1 / 0`;
    }, Infinity);
    warnings.length = 0;
    const started = Date.now();
    expect(await run(captureId)).toBe("failed");
    expect(Date.now() - started, "not retried until the write deadline").toBeLessThan(10_000);
    expect(writes(), "with its analysis, with its sources only, the answer alone").toBe(3);
    expect(runner.openai.requests.length - calls).toBe(1);
    expect(warnings.join("\n")).toMatch(/could not be stored/);
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "failed", lastErrorClass: "permanent" });
    expect(capture.lastError).toMatch(/could not be stored/);
    expect(capture.attempts).toHaveLength(1);
    expect(capture.attempts[0]).toMatchObject({ outcome: "failed", reason: "result_not_stored", costIsEstimate: false });
    expect(capture.attempts[0]!.costMicros).toBeGreaterThan(0n);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("an answer recorded after the brand's re-analysis passed (defect 5)", () => {
  it("is analysed again with the brand's new competitor; mentions and rollups agree after quiescence", async () => {
    const space = await spaceTracking(["HubSpot"]);
    // An answer already in the history, which the edit's re-analysis covers.
    const first = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    expect(await run(first.captureIds[0]!)).toBe("succeeded");
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"], prompts: 2 });
    const captureId = captureIds.find((id) => id !== first.captureIds[0])!;
    const other = captureIds.find((id) => id !== captureId)!;
    const held = gateAt("call:after-provider", (c) => c.captureId === captureId);
    const running = run(captureId);
    await held.reached;
    // The edit adds a competitor the held answer names; its re-analysis runs to the end.
    await setCompetitors(space.workspaceId, space.brandId, ["HubSpot", "Salesforce"]);
    await drainReanalysis(space.brandId);
    expect(await mentioned(first.captureIds[0]!)).toContain("Salesforce");
    held.open();
    expect(await running).toBe("succeeded");
    expect(await run(other)).toBe("succeeded");

    await drainReanalysis(space.brandId);
    expect(await mentioned(captureId)).toEqual(["HubSpot", "Salesforce"]);
    const brand = await db().brand.findUniqueOrThrow({ where: { id: space.brandId }, include: { competitors: true } });
    for (const capture of await db().capture.findMany({ where: { brandId: space.brandId, status: "succeeded" }, include: { mentions: true } })) {
      expect(capture.mentions.map((m) => m.competitorId ?? "brand").sort(), `capture ${capture.id} analysed with every tracked entity`).toEqual(["brand", ...brand.competitors.map((c) => c.id)].sort());
    }
    await expectRollupsAsIfRebuilt(space.brandId);
  });
});

describe("a success that arrives after a cancel request (defect 6)", () => {
  it("ends succeeded and analysed, with one succeeded attempt and a note; a one-capture check completes", async () => {
    const space = await spaceTracking(["HubSpot"]);
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const held = gateAt("call:after-provider", (c) => c.captureId === captureId);
    const running = run(captureId);
    await held.reached;
    expect(await cancelCapture(space.owner, captureId)).toEqual({ cancelledNow: 0, aborting: 1 });
    held.open();
    expect(await running).toBe("succeeded");

    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", answerText: OPENAI_ANSWER.text });
    expect(capture.lastError).toMatch(/cancel/i);
    expect(capture.analyzedAt).not.toBeNull();
    expect(await mentioned(captureId)).toEqual(["HubSpot"]);
    expect(capture.attempts.filter((a) => a.outcome === "succeeded")).toHaveLength(1);
    expect(await db().event.count({ where: { captureId, kind: "cancel_too_late" } })).toBe(1);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("completed");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a cancelled check whose running answer arrived late is cancelled, with that answer succeeded", async () => {
    const space = await spaceTracking([]);
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"], prompts: 2 });
    const [late, waiting] = captureIds as [string, string];
    const held = gateAt("call:after-provider", (c) => c.captureId === late);
    const running = run(late);
    await held.reached;
    expect(await cancelCheckNow(space.owner, checkId)).toEqual({ cancelledNow: 1, aborting: 1 });
    held.open();
    expect(await running).toBe("succeeded");
    expect((await captureRow(late)).status).toBe("succeeded");
    expect((await captureRow(waiting)).status).toBe("cancelled");
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("cancelled");
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("a success whose reply was lost after it committed (defect 9)", () => {
  it("is counted once by the breaker, and the run knows it succeeded", async () => {
    const space = await spaceTracking([]);
    const connectionId = space.connections["OpenAI API"]!;
    const { model } = await db().providerConfig.findUniqueOrThrow({ where: { id: space.providers["OpenAI API"]! } });
    await db().$executeRaw`INSERT INTO breaker_states ("connectionId", model, "updatedAt") VALUES (${connectionId}::uuid, ${model}, now())`;
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const lost = actAt("succeed:after-commit", () => {
      throw new Error("Connection terminated unexpectedly");
    });
    expect(await run(captureIds[0]!)).toBe("succeeded");
    expect(lost()).toBe(1);
    const breaker = await db().breakerState.findUniqueOrThrow({ where: { connectionId_model: { connectionId, model } } });
    expect(breaker.successCount, "counted once").toBe(1n);
    expect(breaker.recentFailures).toEqual([false]);
    const capture = await captureRow(captureIds[0]!);
    expect(capture.status).toBe("succeeded");
    expect(capture.attempts).toHaveLength(1);
  });
});

describe("a provider that reports more usage than the call's limits allowed (defect 9)", () => {
  it("is charged at most the worst case it reserved: charged stays within the budget, the excess is recorded", async () => {
    const space = await spaceTracking([]);
    const connectionId = space.connections["OpenAI API"]!;
    // Sixteen output tokens allowed, no search; reasoning dear. The fake answer uses 512 output
    // and 192 reasoning tokens and two searches.
    const connection = await db().providerConnection.update({
      where: { id: connectionId },
      data: { maxOutputTokens: 16, maxSearchCalls: 0, reasoningPricePerMTokMicros: 1_000_000_000 },
    });
    const before = await budgetNow(space.workspaceId);
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { prompt: true } });
    const hold = (await budgetNow(space.workspaceId)).reserved - before.reserved;
    const worst = BigInt(worstCaseCost(capture.prompt.text, capture.searchMode, { maxOutputTokens: 16, maxSearchCalls: 0 }, connection));
    // (Its reasoning tokens alone: the rest only adds to it.)
    const actual = BigInt(costOf({ inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: OPENAI_ANSWER.usage.reasoning_tokens, searchCalls: 0 }, connection));
    // The budget admits the check and the call, and nothing more.
    const budget = before.charged + (hold > worst ? hold : worst);
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: budget } });
    expect(before.charged + actual, "the provider's usage would exceed the budget").toBeGreaterThan(budget);

    expect(await run(captureId)).toBe("succeeded");
    const after = await budgetNow(space.workspaceId);
    expect(after.charged, "charged within the budget").toBeLessThanOrEqual(budget);
    const row = await captureRow(captureId);
    expect(row.attempts[0]!.costMicros, "charged its worst case").toBe(worst);
    expect(row.attempts[0]!.costMicros + row.attempts[0]!.costOverrunMicros, "the actual cost is kept").toBeGreaterThan(worst);
    expect(row.costMicros).toBe(worst);
    expect(await db().event.count({ where: { captureId, kind: "attempt_cost_overrun" } })).toBe(1);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("an answer already in the socket when the call's timeout comes due late (a stalled process)", () => {
  it("is read and stored, not aborted: the timeout lets the socket deliver what it holds first", async () => {
    const space = await spaceTracking(["HubSpot"]);
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const TIMEOUT_MS = 1_000;
    await db().providerConnection.update({ where: { id: space.connections["OpenAI API"]! }, data: { timeoutMs: TIMEOUT_MS } });
    // The whole answer is sent (paid), then this process, the run's code included, stalls past
    // the call's timeout (a long GC pause, a loaded machine): in the event loop's next turn the
    // timer is due before the socket is read.
    runner.openai.enqueue({ kind: "answer", thenStallMs: TIMEOUT_MS + 500 });
    const calls = runner.openai.requests.length;
    expect(await run(captureId)).toBe("succeeded");
    expect(runner.openai.requests.length - calls, "one provider call").toBe(1);
    expect(runner.openai.requests.at(-1)!.closedBy, "the client read the answer").toBeUndefined();
    expect(await captureRow(captureId)).toMatchObject({ status: "succeeded", answerText: OPENAI_ANSWER.text, answerIsPartial: false });
    expect((await captureRow(captureId)).attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    await expectBudgetConsistent(space.workspaceId);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("completed");
  });
});

describe("a provider SDK that loads slowly on a worker's first call", () => {
  it("is loaded before the call is timed: the load does not spend the provider's timeout", async () => {
    const space = await spaceTracking(["HubSpot"]);
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    const TIMEOUT_MS = 1_000;
    await db().providerConnection.update({ where: { id: space.connections["OpenAI API"]! }, data: { timeoutMs: TIMEOUT_MS } });
    const adapter = adapterFor("openai")!;
    const load = adapter.load;
    let loadedAt: number | null = null;
    // A first import on a loaded machine: longer than the whole timeout.
    adapter.load = async () => {
      await load?.();
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 500));
      loadedAt = runner.openai.requests.length;
    };
    try {
      runner.openai.enqueue({ kind: "answer" });
      const calls = runner.openai.requests.length;
      expect(await run(captureIds[0]!)).toBe("succeeded");
      expect(loadedAt, "loaded before the request was sent").toBe(calls);
      expect(runner.openai.requests.length - calls, "one provider call").toBe(1);
      expect((await captureRow(captureIds[0]!)).attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    } finally {
      adapter.load = load;
    }
  });
});
