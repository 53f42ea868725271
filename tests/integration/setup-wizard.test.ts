// The first run (issue 12, item 4) through its real server actions and a real database: a new
// workspace asks for suggestions from its website's domain, the worker's job makes one call
// (the simulator offline, or a real OpenAI-compatible server over HTTP) charged to the budget
// and the grant like a capture's, and accepting the edited proposal creates the brand,
// competitors, prompts and the first check at once, exactly once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { acceptSetupAction, requestSetupSuggestionsAction, setupSuggestionAction } from "@/lib/actions/setup";
import { budgetStatus } from "@/lib/billing/budget";
import { costOf } from "@/lib/billing/money";
import { grantConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { setupPrompt } from "@/lib/setup/prompt";
import type { AcceptSetupInput, SetupProposal } from "@/lib/setup/schemas";
import { runSetupSuggestions, type SetupSuggestionView } from "@/lib/setup/suggestions";
import { startFakeOpenAICompatible, type CompatibleScenario } from "@/tests/support/fake-providers/openai-compatible-server";
import type { FakeServer } from "@/tests/support/fake-providers/openai-server";
import { liveWorker } from "@/tests/support/lifecycle-fixtures";
import { waitFor } from "@/tests/support/wait-for";
import { startWorker } from "@/tests/support/worker-process";
import { expectFieldError, join, ok, refused, signUp, type Person } from "../support/workspace-fixtures";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let server: FakeServer<CompatibleScenario>;
/** The job's runs here are this process's, under a worker heartbeat of their own. */
let workerId: string;
beforeAll(async () => {
  server = await startFakeOpenAICompatible();
  workerId = await liveWorker();
});
afterAll(() => server.close());

const connectionId = async (name: string) => (await db().providerConnection.findUniqueOrThrow({ where: { name } })).id;
const simulator = () => connectionId("Simulated ChatGPT");
const jobsFor = (suggestionId: string) =>
  db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${`setup:${suggestionId}`}`.then((r) => Number(r[0]!.n));

async function suggestion(person: Person, suggestionId: string): Promise<SetupSuggestionView> {
  return ok(await person.browser.run(() => setupSuggestionAction({ suggestionId })));
}

/** Sign-up, then suggestions from the simulator made by the job's function (as the worker calls it). */
async function suggested(person: Person, domain = "https://www.acme-crm.com/about", language = "de") {
  const { suggestionId } = ok(await person.browser.run(async () => requestSetupSuggestionsAction({ domain, language, country: "DE", connectionId: await simulator() })));
  expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("succeeded");
  return { suggestionId, view: await suggestion(person, suggestionId) };
}

/** The editor's output for a proposal: what the browser sends on accept. */
function accepted(suggestionId: string, proposal: SetupProposal, providerConfigIds: string[]): AcceptSetupInput {
  return { suggestionId, brand: { ...proposal.brand, competitors: proposal.competitors }, questions: proposal.questions, providerConfigIds };
}

const providersOf = async (workspaceId: string, ...names: string[]) =>
  (await db().providerConfig.findMany({ where: { workspaceId, name: { in: names } }, select: { id: true } })).map((p) => p.id);

describe("suggestions", () => {
  it("the worker's job writes the simulator's proposal for the registrable domain, and the budget counts its cost", async () => {
    const owner = await signUp({ workspaceName: "Acme GmbH" });
    await db().workspace.update({ where: { id: owner.workspaceId }, data: { monthlyBudgetMicros: 5_000_000 } });
    const worker = await startWorker("setup");
    const { suggestionId } = ok(
      await owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "https://shop.Acme-CRM.com/pricing", language: "de", country: "de", connectionId: await simulator() })),
    );
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(row).toMatchObject({ domain: "acme-crm.com", language: "de", country: "DE", status: expect.stringMatching(/queued|running|succeeded/) });
    expect(Number(row.reservedMicros)).toBeGreaterThan(0);

    const done = await waitFor(async () => {
      const view = await suggestion(owner, suggestionId);
      return view.status === "succeeded" || view.status === "failed" ? view : null;
    }, { what: "the worker to finish the suggestion", timeoutMs: 30_000 });
    await waitFor(async () => (await jobsFor(suggestionId)) === 0, { what: "the finished job to leave the queue", timeoutMs: 10_000 });
    await worker.stop();
    expect(done.error).toBeNull();
    expect(done.proposal!.brand).toEqual({ name: "Acme CRM", aliases: ["acmecrm"], domains: ["acme-crm.com"] });
    expect(done.proposal!.questions.length).toBeGreaterThanOrEqual(20);
    expect(done.proposal!.questions[0]!.text).toMatch(/^Was ist die beste CRM-Software für ein kleines Unternehmen in Deutschland\?/);
    expect(done.proposal!.competitors.length).toBeGreaterThanOrEqual(5);

    // Charged like a capture: the worst case left "in flight", the actual cost is charged (list prices of Simulated ChatGPT).
    const cost = done.costMicros!;
    expect(cost).toBeGreaterThan(0);
    expect(cost).toBeLessThanOrEqual(Number(row.reservedMicros));
    const budget = await budgetStatus(owner.workspaceId);
    expect(budget).toMatchObject({ chargedMicros: cost, inFlightMicros: 0, reservedMicros: 0, leftMicros: 5_000_000 - cost });
    // Running the job again (graphile-worker may) changes nothing.
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("skipped");
    expect((await budgetStatus(owner.workspaceId)).chargedMicros).toBe(cost);
  });

  it("the simulator reads the words of the address as typed and of 'what do you sell', and the view says it was simulated", async () => {
    const owner = await signUp({ workspaceName: "Northwind Ltd" });
    const ask = (domain: string, offering?: string) =>
      owner.browser.run(async () => requestSetupSuggestionsAction({ domain, offering, language: "en", country: "GB", connectionId: await simulator() }));
    // Issue 19: this shop's tents became an "email marketing platform" sold against Reachio and Reachly.
    const tents = ok(await ask("https://www.northwind-outdoor.co.uk/tents/?utm_source=x"));
    expect(await db().setupSuggestion.findUniqueOrThrow({ where: { id: tents.suggestionId } })).toMatchObject({ domain: "northwind-outdoor.co.uk", address: "northwind-outdoor.co.uk/tents", offering: null });
    expect(await runSetupSuggestions(tents.suggestionId, { workerId })).toBe("succeeded");
    const view = await suggestion(owner, tents.suggestionId);
    expect(view).toMatchObject({ simulated: true, offering: null });
    expect(view.proposal!.brand.name).toBe("Northwind Outdoor");
    expect(view.proposal!.questions[0]!.text).toBe("What is the best outdoor gear brand in the UK?");
    expect(view.proposal!.competitors.map((c) => c.name).join(" ")).not.toMatch(/Reach|Mail|Send/);

    // A domain without a telling word: the person's own words decide; without them nothing is claimed.
    const toys = ok(await ask("northwind.co.uk", "  toys for   dogs "));
    const plain = ok(await ask("northwind.co.uk"));
    expect(toys.suggestionId).not.toBe(plain.suggestionId);
    expect(await db().setupSuggestion.findUniqueOrThrow({ where: { id: toys.suggestionId } })).toMatchObject({ address: "northwind.co.uk", offering: "toys for dogs" });
    for (const { suggestionId } of [toys, plain]) expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("succeeded");
    expect((await suggestion(owner, toys.suggestionId)).proposal!.questions[0]!.text).toBe("What is the best pet supplies brand in the UK?");
    expect((await suggestion(owner, plain.suggestionId)).proposal!.questions[0]!.text).toBe("Which companies are similar to Northwind?");

    expectFieldError(await ask("northwind.co.uk", "x".repeat(81)), "offering", /at most 80 characters/);
  });

  it("over budget: a clear error, no row, no job, nothing reserved", async () => {
    const owner = await signUp({ workspaceName: "Broke Co" });
    await db().workspace.update({ where: { id: owner.workspaceId }, data: { monthlyBudgetMicros: 100 } });
    const setupJobs = () => db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key LIKE 'setup:%'`.then((r) => Number(r[0]!.n));
    const jobsBefore = await setupJobs();
    const result = await owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "broke.com", language: "en", connectionId: await simulator() }));
    const error = refused(result, "budget_exceeded");
    expect(error.message).toMatch(/over this month's budget/);
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
    expect(await setupJobs()).toBe(jobsBefore);
    expect(await budgetStatus(owner.workspaceId)).toMatchObject({ inFlightMicros: 0, chargedMicros: 0 });
  });

  it("asked twice at once for the same site, language and connection: one row, one job, one reservation", async () => {
    const owner = await signUp({ workspaceName: "Eager Co" });
    const ask = () => owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "eager.com", language: "en", connectionId: await simulator() }));
    const [first, second] = await Promise.all([ask(), ask()]);
    expect(ok(first).suggestionId).toBe(ok(second).suggestionId);
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(1);
    expect(await jobsFor(ok(first).suggestionId)).toBe(1);
    const [row] = await db().setupSuggestion.findMany({ where: { workspaceId: owner.workspaceId } });
    expect((await budgetStatus(owner.workspaceId)).inFlightMicros).toBe(Number(row!.reservedMicros));
    // Another site is another question.
    ok(await owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "eager.de", language: "de", connectionId: await simulator() })));
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(2);
  });

  it("asked again once answered (a resubmit after a lost response): the answer it paid for, not a second call; ten minutes on, a new one", async () => {
    const owner = await signUp({ workspaceName: "Resubmit Co" });
    const { suggestionId } = await suggested(owner, "resubmit.com", "en");
    const again = () => owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "resubmit.com", language: "en", country: "DE", connectionId: await simulator() }));
    expect(ok(await again()).suggestionId).toBe(suggestionId);
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(1);
    expect((await budgetStatus(owner.workspaceId)).inFlightMicros, "nothing reserved for a second call").toBe(0);
    await db().$executeRaw`UPDATE setup_suggestions SET "finishedAt" = now() - interval '11 minutes' WHERE id = ${suggestionId}::uuid`;
    expect(ok(await again()).suggestionId).not.toBe(suggestionId);
  });

  it("a domain that is not one, or a connection not granted to the workspace, is refused and stores nothing", async () => {
    const owner = await signUp({ workspaceName: "Careful Co" });
    const bad = await owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "not a website", language: "en", connectionId: await simulator() }));
    expectFieldError(bad, "domain", /Enter your website's domain/);
    // "OpenAI" exists but is granted to no workspace; "Simulated GigaChat" neither.
    for (const name of ["OpenAI", "Simulated GigaChat"]) {
      const refusal = await owner.browser.run(async () => requestSetupSuggestionsAction({ domain: "careful.com", language: "en", connectionId: await connectionId(name) }));
      expect(refused(refusal, "not_found").message).toMatch(/not available to this workspace/);
    }
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
  });

  it("a real connection: one prompt over HTTP, the JSON read from a fenced answer, its tokens charged to the budget and the grant", async () => {
    const owner = await signUp({ workspaceName: "Real Co" });
    const connection = await db().providerConnection.create({
      data: {
        name: `Compatible ${randomUUID().slice(0, 8)}`,
        adapter: "openai_compatible",
        models: ["deepseek-chat"],
        inputPricePerMTokMicros: 1_000_000,
        outputPricePerMTokMicros: 2_000_000,
        settings: { baseURL: server.url },
      },
    });
    await grantConnection({ connectionId: connection.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: 1_000_000 }, null);
    const questions = Array.from({ length: 22 }, (_, i) => ({ text: `Quel CRM choisir pour une équipe de ${i + 2} personnes ?`, tag: "découverte" }));
    const json = { brand: { name: "Lumen", aliases: ["Lumen CRM"], domains: ["lumen.fr"] }, competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Axonaut", domains: ["axonaut.com"] }], questions };
    const usage = { prompt_tokens: 400, completion_tokens: 1500 };
    server.enqueue({ kind: "answer", answer: { content: `Voici :\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\``, usage } });

    const before = server.requests.length;
    const { suggestionId } = ok(await owner.browser.run(() => requestSetupSuggestionsAction({ domain: "lumen.fr", language: "fr", country: "FR", connectionId: connection.id })));
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("succeeded");

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!.body as { model: string; messages: { content: string }[]; max_tokens: number };
    expect(sent.model).toBe("deepseek-chat");
    expect(sent.messages[0]!.content).toBe(setupPrompt({ domain: "lumen.fr", language: "fr", country: "FR" }));
    expect(sent.messages[0]!.content).toContain("written in French (fr)");

    const view = await suggestion(owner, suggestionId);
    expect(view.status).toBe("succeeded");
    expect(view.proposal!.brand).toEqual({ name: "Lumen", aliases: ["Lumen CRM"], domains: ["lumen.fr"] });
    expect(view.proposal!.competitors.map((c) => c.name)).toEqual(["HubSpot", "Axonaut"]);
    expect(view.proposal!.questions).toHaveLength(22);
    expect(view.proposal!.questions[0]!.tags).toEqual(["découverte"]);
    const cost = costOf({ inputTokens: 400, outputTokens: 1500, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 }, connection);
    expect(view.costMicros).toBe(cost);
    expect((await budgetStatus(owner.workspaceId)).chargedMicros).toBe(cost);
    const [grant] = await db().$queryRaw<{ charged: bigint; inFlight: bigint }[]>`
      SELECT sum("chargedMicros")::bigint AS charged, sum("inFlightMicros")::bigint AS "inFlight" FROM grant_spend_periods
      WHERE "connectionId" = ${connection.id}::uuid AND "workspaceId" = ${owner.workspaceId}::uuid`;
    expect(grant).toEqual({ charged: BigInt(cost), inFlight: 0n });
  });

  it("an answer without usable JSON fails with a clear message, and the call is still paid for", async () => {
    const owner = await signUp({ workspaceName: "Prose Co" });
    const connection = await db().providerConnection.create({
      data: { name: `Prose ${randomUUID().slice(0, 8)}`, adapter: "openai_compatible", models: ["m"], inputPricePerMTokMicros: 1_000_000, settings: { baseURL: server.url }, grantedToAll: false },
    });
    await grantConnection({ connectionId: connection.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: null }, null);
    server.enqueue({ kind: "answer", answer: { content: "I'm sorry, I can't look up websites.", usage: { prompt_tokens: 200, completion_tokens: 10 } } });
    const { suggestionId } = ok(await owner.browser.run(() => requestSetupSuggestionsAction({ domain: "prose.com", language: "en", connectionId: connection.id })));
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("failed");
    const view = await suggestion(owner, suggestionId);
    expect(view.error).toMatch(/no JSON object/);
    expect(view.costMicros).toBe(200);
    expect(await budgetStatus(owner.workspaceId)).toMatchObject({ chargedMicros: 200, inFlightMicros: 0 });
  });

  it("a provider that refuses (401): failed with its reason, nothing charged, the reservation given back", async () => {
    const owner = await signUp({ workspaceName: "Refused Co" });
    const connection = await db().providerConnection.create({
      data: { name: `Refusing ${randomUUID().slice(0, 8)}`, adapter: "openai_compatible", models: ["fake:unauthorized"], inputPricePerMTokMicros: 1_000_000, settings: { baseURL: server.url }, grantedToAll: true },
    });
    const { suggestionId } = ok(await owner.browser.run(() => requestSetupSuggestionsAction({ domain: "refused.com", language: "en", connectionId: connection.id })));
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("failed");
    expect((await suggestion(owner, suggestionId)).error).toMatch(/The provider refused/);
    expect(await budgetStatus(owner.workspaceId)).toMatchObject({ chargedMicros: 0, inFlightMicros: 0 });
  });

  it("a call that does not answer in time is aborted and charged its estimate; a grant's limit refuses like the budget", async () => {
    const owner = await signUp({ workspaceName: "Slow Co" });
    const connection = await db().providerConnection.create({
      data: { name: `Slow ${randomUUID().slice(0, 8)}`, adapter: "openai_compatible", models: ["m"], inputPricePerMTokMicros: 1_000_000, outputPricePerMTokMicros: 1_000_000, timeoutMs: 300, settings: { baseURL: server.url } },
    });
    await grantConnection({ connectionId: connection.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: null }, null);
    server.enqueue({ kind: "hang" });
    const { suggestionId } = ok(await owner.browser.run(() => requestSetupSuggestionsAction({ domain: "slow.com", language: "en", connectionId: connection.id })));
    const reserved = Number((await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros);
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("failed");
    const view = await suggestion(owner, suggestionId);
    expect(view.error).toMatch(/did not answer in time/);
    expect(view.costMicros).toBeGreaterThan(0);
    expect(view.costMicros).toBeLessThan(reserved);
    expect(await budgetStatus(owner.workspaceId)).toMatchObject({ chargedMicros: view.costMicros, inFlightMicros: 0 });

    // The grant allows less than this call's worst case: refused, nothing reserved or stored.
    await grantConnection({ connectionId: connection.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: view.costMicros! + 1 }, null);
    const refusal = refused(await owner.browser.run(() => requestSetupSuggestionsAction({ domain: "slow.com", language: "en", connectionId: connection.id })), "budget_exceeded");
    expect(refusal.message).toMatch(/limit on this connection/);
    expect(await db().setupSuggestion.count({ where: { workspaceId: owner.workspaceId } })).toBe(1);
    expect(await budgetStatus(owner.workspaceId)).toMatchObject({ chargedMicros: view.costMicros, inFlightMicros: 0 });
  });
});

describe("accept", () => {
  it("creates the edited brand, competitors and prompts and starts the first check, once, however often it is sent", async () => {
    const owner = await signUp({ workspaceName: "Accept Co" });
    const { suggestionId, view } = await suggested(owner);
    const proposal = view.proposal!;
    const edited: SetupProposal = {
      brand: { ...proposal.brand, aliases: ["Acme"] },
      competitors: [...proposal.competitors.slice(1), { name: "Zoho CRM", aliases: [], domains: ["zoho.com"] }],
      questions: [...proposal.questions.slice(0, 5).map((q, i) => (i === 0 ? { ...q, text: "Welche CRM-Software passt zu einem Handwerksbetrieb?" } : q)), { text: "Was kostet Acme CRM?", tags: ["pricing"] }],
    };
    const providerConfigIds = await providersOf(owner.workspaceId, "ChatGPT", "Claude");
    const input = accepted(suggestionId, edited, providerConfigIds);
    // A question the workspace already asks (in capitals) is reused, not added twice.
    const existing = await db().prompt.create({ data: { workspaceId: owner.workspaceId, text: "WAS KOSTET ACME CRM?" } });

    // A double click: two submits at once, then a late third one.
    const [first, second] = await Promise.all([owner.browser.run(() => acceptSetupAction(input)), owner.browser.run(() => acceptSetupAction(input))]);
    const a = ok(first);
    const b = ok(second);
    expect(b.checkId).toBe(a.checkId);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(ok(await owner.browser.run(() => acceptSetupAction(input))).checkId).toBe(a.checkId);

    const brands = await db().brand.findMany({ where: { workspaceId: owner.workspaceId }, include: { competitors: { orderBy: { createdAt: "asc" } } } });
    expect(brands).toHaveLength(1);
    expect(brands[0]).toMatchObject({ name: "Acme CRM", aliases: ["Acme"], domains: ["acme-crm.com"] });
    expect(brands[0]!.competitors.map((c) => c.name).sort()).toEqual(edited.competitors.map((c) => c.name).sort());
    const prompts = await db().prompt.findMany({ where: { workspaceId: owner.workspaceId, id: { not: existing.id } } });
    expect(prompts.map((p) => p.text).sort()).toEqual(edited.questions.slice(0, 5).map((q) => q.text).sort());
    expect(prompts.every((p) => p.language === "de" && p.country === "DE")).toBe(true);

    const checks = await db().check.findMany({ where: { workspaceId: owner.workspaceId }, include: { captures: true } });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ id: a.checkId, brandId: brands[0]!.id, startedById: owner.userId, totalCaptures: 12 });
    expect(new Set(checks[0]!.captures.map((c) => c.providerConfigId))).toEqual(new Set(providerConfigIds));
    expect(new Set(checks[0]!.captures.map((c) => c.promptId))).toEqual(new Set([...prompts.map((p) => p.id), existing.id]));
    expect((await suggestion(owner, suggestionId)).checkId).toBe(a.checkId);
  });

  it("bad input or an over-budget check: a clear error and nothing created", async () => {
    const owner = await signUp({ workspaceName: "Strict Co" });
    const { suggestionId, view } = await suggested(owner, "strict-crm.com", "en");
    const providerConfigIds = await providersOf(owner.workspaceId, "ChatGPT");
    const proposal = view.proposal!;

    const badDomain = await owner.browser.run(() =>
      acceptSetupAction(accepted(suggestionId, { ...proposal, competitors: [{ name: "Rival", aliases: [], domains: ["not a domain"] }] }, providerConfigIds)),
    );
    expectFieldError(badDomain, "brand.competitors.0.domains.0", /Enter a domain such as example.com/);
    const twice = await owner.browser.run(() =>
      acceptSetupAction(accepted(suggestionId, { ...proposal, competitors: [{ name: "Strict CRM", aliases: [], domains: [] }] }, providerConfigIds)),
    );
    expectFieldError(twice, "brand.competitors.0.name", /listed twice/);
    const noQuestions = await owner.browser.run(() => acceptSetupAction(accepted(suggestionId, { ...proposal, questions: [] }, providerConfigIds)));
    expectFieldError(noQuestions, "questions", /Keep at least one question/);

    // The check does not fit the budget: the brand and prompts made before it are rolled back too.
    await db().workspace.update({ where: { id: owner.workspaceId }, data: { monthlyBudgetMicros: (await budgetStatus(owner.workspaceId)).chargedMicros + 1 } });
    refused(await owner.browser.run(() => acceptSetupAction(accepted(suggestionId, proposal, providerConfigIds))), "budget_exceeded");

    expect(await db().brand.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
    expect(await db().prompt.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
    expect(await db().check.count({ where: { workspaceId: owner.workspaceId } })).toBe(0);
    expect((await suggestion(owner, suggestionId)).checkId).toBeNull();
  });

  it("only the workspace's members who may edit brands and start checks; other workspaces cannot see or accept it", async () => {
    const owner = await signUp({ workspaceName: "Guarded Co" });
    const { suggestionId, view } = await suggested(owner, "guarded.com", "en");
    const input = accepted(suggestionId, view.proposal!, await providersOf(owner.workspaceId, "ChatGPT"));
    const viewer = await join(owner, "viewer");
    refused(await viewer.browser.run(() => acceptSetupAction(input)), "forbidden");
    refused(await viewer.browser.run(async () => requestSetupSuggestionsAction({ domain: "guarded.com", language: "en", connectionId: await simulator() })), "forbidden");

    const stranger = await signUp({ workspaceName: "Stranger Co" });
    refused(await stranger.browser.run(() => setupSuggestionAction({ suggestionId })), "not_found");
    // With the owner's suggestion and providers: neither is the stranger's.
    refused(await stranger.browser.run(() => acceptSetupAction(input)), "not_found");
    const own = await suggested(stranger, "stranger.com", "en");
    refused(await stranger.browser.run(() => acceptSetupAction({ ...input, suggestionId: own.suggestionId })), "not_found");

    expect(await db().brand.count({ where: { workspaceId: { in: [owner.workspaceId, stranger.workspaceId] } } })).toBe(0);
  });
});
