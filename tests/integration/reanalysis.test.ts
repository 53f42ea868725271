// When a brand's names or competitors change, its stored answers are analysed again in the
// background, with progress, so history follows the new rules.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { ANALYSIS_MAX_CHARS } from "@/lib/analysis/analyze";
import { MIGRATIONS_DIR } from "@/lib/instance/migrate";
import { BRAND_INPUTS, firstAnswerIds, runReanalysis } from "@/lib/brands/reanalysis";
import { brandsMidReanalysis, reanalysisByBrand } from "@/lib/jobs/analysis-runs";
import { updateBrand } from "@/lib/brands/brands";
import { brandInputSchema } from "@/lib/brands/schemas";
import { getCaptureDetail } from "@/lib/checks/queries";
import { seedDemo } from "@/lib/seed/demo";
import { recordRollups, rewriteRollups } from "@/lib/analytics/rollups";
import { ROLLUPS, type AnswerSource } from "@/lib/analytics/rollup-tables";
import { actAt, gateAt, lockWaiters, waitForLockWaiter } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { rollupsAndRebuild } from "../support/rollup-rebuild";
import { resolveFilter } from "@/lib/analytics/filter";
import { promptPerformance } from "@/lib/analytics/prompts";
import { addDays, analyticsFilterInput, isoDay } from "@/lib/analytics/schemas";
import { shareOfVoiceOverTime } from "@/lib/analytics/trends";

let workspaceId: string;
let brandId: string;

async function addAnsweredCapture(answer: string, ofBrand = brandId, promptId?: string) {
  const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId, connection: { adapter: "simulator" } } });
  const prompt = await db().prompt.findFirstOrThrow({ where: { workspaceId, ...(promptId ? { id: promptId } : {}) } });
  const check = await db().check.create({ data: { workspaceId, brandId: ofBrand, totalCaptures: 1, status: "completed" } });
  return db().capture.create({
    data: { workspaceId, checkId: check.id, brandId: ofBrand, promptId: prompt.id, providerConfigId: provider.id, connectionId: provider.connectionId, sample: 1, status: "succeeded", maxAttempts: 3, model: "m", searchMode: "off", answerText: answer, finishedAt: new Date() },
  });
}

beforeAll(async () => {
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: "demo" } });
  workspaceId = workspace.id;
  brandId = (await db().brand.findFirstOrThrow({ where: { workspaceId } })).id;
});

describe("re-analysis", () => {
  it("applies a new alias and a new competitor to stored answers, reporting progress", async () => {
    const capture = await addAnsweredCapture("1. Zoho is affordable and flexible.\n2. Lumi is praised for its reporting.");
    const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });

    const input = brandInputSchema.parse({
      name: brand.name,
      aliases: [...brand.aliases, "Lumi"],
      domains: brand.domains,
      competitors: [...brand.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })), { name: "Zoho" }],
    });
    await updateBrand(workspaceId, brandId, input);

    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId }, orderBy: { createdAt: "desc" } });
    expect(run).toMatchObject({ status: "queued", total: 1, done: 0 });
    const job = await db().$queryRaw<{ task_identifier: string; queue_name: string }[]>`SELECT task_identifier, queue_name FROM graphile_worker.jobs WHERE task_identifier = 'reanalyze'`;
    expect(job).toEqual([{ task_identifier: "reanalyze", queue_name: `reanalyze:${brandId}` }]);

    await runReanalysis(run.id);

    expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", done: 1, total: 1 });
    const mentions = await db().mention.findMany({ where: { captureId: capture.id }, orderBy: { name: "asc" } });
    const byName = Object.fromEntries(mentions.map((m) => [m.name, m]));
    expect(byName["Lumen CRM"]).toMatchObject({ mentioned: true, position: 2, sentiment: "positive", brandId });
    expect(byName["Zoho"]).toMatchObject({ mentioned: true, position: 1, kind: "competitor" });
    expect(mentions.filter((m) => m.mentioned)).toHaveLength(2);
    expect((await db().capture.findUniqueOrThrow({ where: { id: capture.id } })).analyzedAt).not.toBeNull();
  });

  it.each([
    { edit: "an alias added", pass: "its pass over every answer" },
    { edit: "a competitor removed", pass: "the answers naming it, first" },
  ] as const)("run twice at once (a worker whose lease ran out still going) takes no answer's contribution away twice, $edit ($pass): the rollups equal their rebuild", async ({ edit }) => {
    // A brand of its own, its answers in its rollups (addAnsweredCapture writes none).
    const racer = await db().brand.create({ data: { workspaceId, name: `Twice Run CRM ${edit}`, competitors: { create: [{ workspaceId, name: "Zoho" }, { workspaceId, name: "Lumi" }] } }, include: { competitors: true } });
    const added = [];
    for (const answer of [`1. Zoho is affordable.\n2. Twice Run CRM ${edit} is praised for its reporting.`, "Twice is fine; Zoho too."]) added.push((await addAnsweredCapture(answer, racer.id)).id);
    await db().$executeRaw`SELECT beacon_rollup_captures(${added}::uuid[], 1)`;
    const competitors = racer.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains }));
    const edited = (aliases: string[], kept: typeof competitors) => updateBrand(workspaceId, racer.id, brandInputSchema.parse({ name: racer.name, aliases, domains: [], competitors: kept }));
    if (edit === "a competitor removed") {
      // Analysed with Zoho first; then Zoho removed, so both answers are the run's first ones.
      await edited(["Twice"], competitors);
      await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: racer.id, status: "queued" } })).id);
      await edited(["Twice"], competitors.filter((c) => c.name !== "Zoho"));
      const brand = await db().brand.findUniqueOrThrow({ where: { id: racer.id }, select: BRAND_INPUTS });
      const first: string[] = [];
      for await (const ids of firstAnswerIds(workspaceId, brand)) first.push(...ids);
      expect(first.sort(), "both answers name Zoho: rewritten first").toEqual([...added].sort());
    } else await edited(["Twice"], competitors);
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: racer.id, status: "queued" } });
    // The worst moment: the first run's batch has locked its answers and staged their contribution's removal.
    const gate = gateAt("rollups:old-staged");
    const first = runReanalysis(run.id);
    await gate.reached;
    const second = runReanalysis(run.id);
    await Promise.race([second, waitForLockWaiter(1)]);
    gate.open();
    await Promise.all([first, second]);

    const { kept, rebuilt } = await rollupsAndRebuild(racer.id);
    expect(kept).toEqual(rebuilt);
    expect(await db().mention.count({ where: { captureId: { in: added }, kind: "brand", mentioned: true } }), "the new alias applied").toBe(2);
  });

  it.each([
    { point: "rollups:old-staged", recordOn: "p" },
    { point: "rollups:new-staged", recordOn: "p" },
    // Written, not committed: it holds the rows it changed (p's answers and mentions), not the
    // domain rows its unchanged citations share with q's answers.
    { point: "reanalysis:batch-before-commit", recordOn: "q" },
  ] as const)("holds no rollup row it does not change while it rewrites a batch (held at $point): an answer of $recordOn recorded and a prompt re-tagged beside it, on the same rows, are not kept waiting", async ({ point, recordOn }) => {
    // Before, a batch took its answers' contribution away first and held those rows until its
    // commit; what it added back could need a row one of them held meanwhile (a deadlock: a
    // re-tagging, not retried, failed in the user's face). Now it writes its rows only at the end,
    // and only those that change.
    const tag = `beside-${point.split(":")[1]}`;
    const beside = await db().brand.create({ data: { workspaceId, name: `Beside CRM ${tag}`, competitors: { create: [{ workspaceId, name: "Zoho" }] } }, include: { competitors: true } });
    // The batch's answer (prompt p, tagged) and an answer of prompt q cite one domain the same day on one provider.
    const [p, q] = await db().prompt.findMany({ where: { workspaceId, deletedAt: null }, orderBy: { id: "asc" }, take: 2 });
    await db().prompt.update({ where: { id: p!.id }, data: { tags: [...p!.tags, tag] } });
    const cite = (captureId: string) => db().citation.create({ data: { workspaceId, captureId, url: "https://beside.example/guide", domain: "beside.example", position: 1 } });
    const batched = await addAnsweredCapture("1. Zoho is affordable.\n2. Beside is praised.", beside.id, p!.id);
    const other = await addAnsweredCapture("Zoho, and Beside too.", beside.id, q!.id);
    for (const capture of [batched, other]) await cite(capture.id);
    await db().$transaction((tx) => recordRollups(tx, [batched.id, other.id]));
    const competitors = beside.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains }));
    await updateBrand(workspaceId, beside.id, brandInputSchema.parse({ name: beside.name, aliases: ["Beside"], domains: [], competitors }));
    // Only the first answer is in the batch (q's answer counts as analysed alike: q's tags are not locked by it).
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: beside.id } });
    await db().capture.update({ where: { id: other.id }, data: { analysisVersion } });
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: beside.id, status: "queued" } });

    const gate = gateAt(point);
    const rewrite = runReanalysis(run.id);
    await gate.reached;
    // Beside it, one after the other (so only the batch could make them wait): a new answer
    // recorded (a success's rollups), and q joining p's tag.
    const recorded = await addAnsweredCapture("Beside again.", beside.id, (recordOn === "p" ? p : q)!.id);
    await cite(recorded.id);
    let done: string | undefined;
    const besideWork = (async () => {
      await db().$transaction((tx) => recordRollups(tx, [recorded.id]));
      await db().prompt.update({ where: { id: q!.id }, data: { tags: [...q!.tags, tag] } });
      done = "done";
    })().catch((error: unknown) => void (done = `failed: ${String(error)}`));
    const outcome = await waitFor(async () => done ?? ((await lockWaiters()) > 0 ? "kept waiting" : undefined), {
      what: "the answer recorded and the re-tagging done, or one of them waiting for a lock",
      timeoutMs: 30_000,
      intervalMs: 10,
    });
    gate.open();
    await Promise.all([rewrite, besideWork]);
    expect(outcome).toBe("done");

    const { kept, rebuilt } = await rollupsAndRebuild(beside.id);
    expect(kept).toEqual(rebuilt);
    expect(kept["rollup_tag_domains"]!.filter((r) => (r as { tag: string }).tag === tag), "q's and both p answers under the tag").toEqual([
      expect.objectContaining({ domain: "beside.example", citations: 3 }),
    ]);
  });

  it("keeps an entity's row and its name when a rewrite takes an answer away from it and another answer still names it", async () => {
    const keeper = await db().brand.create({ data: { workspaceId, name: "Keeper CRM" } });
    const [left, stays] = [await addAnsweredCapture("Keeper CRM and Stray Co.", keeper.id), await addAnsweredCapture("Keeper CRM, Stray Co.", keeper.id)];
    for (const capture of [left, stays]) {
      await db().mention.createMany({
        data: [
          { workspaceId, captureId: capture.id, kind: "brand", brandId: keeper.id, name: "Keeper CRM", mentioned: true, count: 1, position: 1 },
          // An untracked name stored as a competitor mention (older analyses did): its entity is the name.
          { workspaceId, captureId: capture.id, kind: "competitor", name: "Stray Co", mentioned: true, count: 1, position: 2 },
        ],
      });
    }
    await db().$transaction((tx) => recordRollups(tx, [left.id, stays.id]));
    // The first answer's stray mention goes: the rewrite stages no name for the entity (nothing adds it).
    await db().$transaction((tx) => rewriteRollups(tx, [left.id], () => tx.mention.deleteMany({ where: { captureId: left.id, kind: "competitor" } })));

    const { kept, rebuilt } = await rollupsAndRebuild(keeper.id);
    expect(kept).toEqual(rebuilt);
    expect(kept["rollup_mentions"]!.find((r) => (r as { entity: string }).entity === "name:Stray Co")).toMatchObject({ name: "Stray Co", rows: 1, mentions: 1n });
  });

  it("works through more than a batch in the order the answers finished, answers sharing a finish time across a batch's end included, each once", async () => {
    const ordered = await db().brand.create({ data: { workspaceId, name: "Ordered CRM" } });
    const first = await addAnsweredCapture("Ordered CRM is fine.", ordered.id);
    // 450 answers at three finish times (150 each): the first batch of 200 ends inside the second time.
    const times = [Date.UTC(2026, 0, 3), Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2)].map((t) => new Date(t));
    const { workspaceId: ws, checkId, brandId: brand, promptId, providerConfigId, connectionId, status, maxAttempts, model, searchMode, answerText } = first;
    const like = { workspaceId: ws, checkId, brandId: brand, promptId, providerConfigId, connectionId, status, maxAttempts, model, searchMode, answerText };
    await db().capture.createMany({ data: Array.from({ length: 449 }, (_, i) => ({ ...like, sample: i + 2, finishedAt: times[i % 3]! })) });
    await db().capture.update({ where: { id: first.id }, data: { finishedAt: times[0] } });
    await updateBrand(workspaceId, ordered.id, brandInputSchema.parse({ name: ordered.name, aliases: ["Ordered"], domains: [], competitors: [] }));
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: ordered.id } });
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: ordered.id, status: "queued" } });
    expect(run.total).toBe(450);

    // Each batch's answers, read in its transaction before it commits.
    const batches: { id: string; finishedAt: Date }[][] = [];
    const seen = new Set<string>();
    actAt(
      "reanalysis:batch-before-commit",
      async ({ tx }) => {
        const stamped = await tx!.capture.findMany({ where: { brandId: ordered.id, analysisVersion }, select: { id: true, finishedAt: true } });
        batches.push(stamped.filter((c) => !seen.has(c.id)).map((c) => ({ id: c.id, finishedAt: c.finishedAt! })));
        for (const c of stamped) seen.add(c.id);
      },
      10,
    );
    await runReanalysis(run.id);

    expect(batches.map((b) => b.length)).toEqual([200, 200, 50]);
    const key = (c: { id: string; finishedAt: Date }) => `${c.finishedAt.toISOString()} ${c.id}`;
    // Each batch's answers all finished (time, then id) after the one before's.
    const sorted = batches.map((b) => b.map(key).sort());
    for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1]!.at(-1)! < sorted[i]![0]!, `batch ${i + 1} starts after batch ${i} ends`).toBe(true);
    expect(new Set(sorted.flat()).size).toBe(450);
    expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", done: 450, total: 450 });
    expect(await db().mention.count({ where: { brandId: ordered.id, kind: "brand", mentioned: true } })).toBe(450);
  });

  it("rewrites first the answers whose dashboard numbers the edit moves (naming a removed competitor, listing a name now tracked), then the rest in order, each once", async () => {
    const first = await db().brand.create({ data: { workspaceId, name: "First CRM", competitors: { create: [{ workspaceId, name: "Zoho" }, { workspaceId, name: "Lumi" }] } }, include: { competitors: true } });
    const [zoho, lumi] = ["Zoho", "Lumi"].map((name) => first.competitors.find((c) => c.name === name)!);
    // 300 answers that name neither, then three that do, last in finish order: the order of a run without priorities puts them in its second batch.
    const plain = await addAnsweredCapture("First CRM is fine.", first.id);
    const { workspaceId: ws, checkId, brandId: brand, promptId, providerConfigId, connectionId, status, maxAttempts, model, searchMode } = plain;
    const like = { workspaceId: ws, checkId, brandId: brand, promptId, providerConfigId, connectionId, status, maxAttempts, model, searchMode };
    await db().capture.update({ where: { id: plain.id }, data: { finishedAt: new Date(Date.UTC(2026, 0, 1)) } });
    await db().capture.createMany({ data: Array.from({ length: 299 }, (_, i) => ({ ...like, sample: i + 2, answerText: "First CRM is fine.", finishedAt: new Date(Date.UTC(2026, 0, 2, 0, i)) })) });
    const late = (minute: number, answerText: string) => ({ ...like, sample: 1000 + minute, answerText, finishedAt: new Date(Date.UTC(2026, 0, 5, 0, minute)) });
    await db().capture.createMany({
      data: [
        late(1, "1. **Zoho**: cheaper.\n2. **First CRM**: simpler."), // names the competitor about to be removed
        late(2, "1. **Acme**: praised for its reporting.\n2. **First CRM**: simpler."), // lists Acme, about to be tracked
        late(3, "1. **Lumi**: fast.\n2. **First CRM**: simpler."), // names a competitor that stays: nothing moves
      ],
    });
    const answers = await db().capture.findMany({ where: { brandId: first.id }, select: { id: true, answerText: true } });
    await db().$executeRaw`SELECT beacon_rollup_captures(${answers.map((a) => a.id)}::uuid[], 1)`;
    await updateBrand(workspaceId, first.id, brandInputSchema.parse({ name: first.name, aliases: [], domains: [], competitors: [{ id: zoho!.id, name: "Zoho" }, { id: lumi!.id, name: "Lumi" }] }));
    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: first.id, status: "queued" } })).id);
    expect(await db().captureCandidate.count({ where: { captureId: { in: answers.map((a) => a.id) }, key: "acme" } }), "Acme listed as an option, untracked").toBe(1);

    // Zoho removed, Acme tracked.
    await updateBrand(workspaceId, first.id, brandInputSchema.parse({ name: first.name, aliases: [], domains: [], competitors: [{ id: lumi!.id, name: "Lumi" }, { name: "Acme" }] }));
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: first.id } });
    const text = new Map(answers.map((a) => [a.id, a.answerText!]));
    const batches: string[][] = [];
    const seen = new Set<string>();
    actAt(
      "reanalysis:batch-before-commit",
      async ({ tx }) => {
        const stamped = await tx!.capture.findMany({ where: { brandId: first.id, analysisVersion }, select: { id: true } });
        batches.push(stamped.filter((c) => !seen.has(c.id)).map((c) => text.get(c.id)!));
        for (const c of stamped) seen.add(c.id);
      },
      10,
    );
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: first.id, status: "queued" } });
    await runReanalysis(run.id);

    expect(batches[0]!.sort(), "the first batch: the two answers whose numbers move").toEqual(["1. **Acme**: praised for its reporting.\n2. **First CRM**: simpler.", "1. **Zoho**: cheaper.\n2. **First CRM**: simpler."]);
    expect(batches.slice(1).map((b) => b.length), "then every other answer, in batches in finish order").toEqual([200, 101]);
    expect(new Set(batches.flat()).size).toBe(4);
    expect(seen.size).toBe(303);
    expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", done: 303, total: 303 });
    const { kept, rebuilt } = await rollupsAndRebuild(first.id);
    expect(kept).toEqual(rebuilt);
    expect(await db().mention.count({ where: { competitorId: zoho!.id } })).toBe(0);
  });

  it("rewrites first the answers naming a removed competitor when the brand tracks none left", async () => {
    const alone = await db().brand.create({ data: { workspaceId, name: "Alone CRM", competitors: { create: [{ workspaceId, name: "Zoho" }] } }, include: { competitors: true } });
    const plain = await addAnsweredCapture("Alone CRM is fine.", alone.id);
    const named = await addAnsweredCapture("Zoho is cheaper than Alone CRM.", alone.id);
    await db().capture.update({ where: { id: plain.id }, data: { finishedAt: new Date(Date.UTC(2026, 0, 1)) } });
    await db().$executeRaw`SELECT beacon_rollup_captures(${[plain.id, named.id]}::uuid[], 1)`;
    const edit = async (competitors: { id: string; name: string }[]) => {
      await updateBrand(workspaceId, alone.id, brandInputSchema.parse({ name: alone.name, aliases: [], domains: [], competitors }));
      return (await db().analysisRun.findFirstOrThrow({ where: { brandId: alone.id, status: "queued" } })).id;
    };
    await runReanalysis(await edit(alone.competitors.map((c) => ({ id: c.id, name: c.name }))));
    const run = await edit([]);
    const firstBatch: string[] = [];
    actAt("reanalysis:batch-before-commit", async ({ tx }) => {
      const { analysisVersion } = await tx!.brand.findUniqueOrThrow({ where: { id: alone.id } });
      firstBatch.push(...(await tx!.capture.findMany({ where: { brandId: alone.id, analysisVersion }, select: { id: true } })).map((c) => c.id));
    });
    await runReanalysis(run);
    expect(firstBatch).toEqual([named.id]);
    const { kept, rebuilt } = await rollupsAndRebuild(alone.id);
    expect(kept).toEqual(rebuilt);
  });

  it("finds the answers to rewrite first across its scan's windows, in the order they finished: a competitor removed, a competitor and an alias added that answers listed", async () => {
    const windowed = await db().brand.create({ data: { workspaceId, name: "Window CRM", competitors: { create: [{ workspaceId, name: "Zoho" }, { workspaceId, name: "Lumi" }] } }, include: { competitors: true } });
    const texts = [
      "Window CRM is fine.",
      "1. **Zoho**: cheaper.\n2. **Window CRM**: simpler.", // names the competitor about to be removed
      "Window CRM again.",
      "1. **Acme**: good reporting.\n2. **Window CRM**: simpler.", // lists Acme, about to be a competitor
      "1. **Lumi**: fast.\n2. **Window CRM**: simpler.", // names a competitor that stays
      "1. **Nimbus**: quick setup.\n2. **Window CRM**: simpler.", // lists Nimbus, about to be the brand's alias
      "Window CRM, once more.",
    ];
    const answers: string[] = [];
    for (const [i, text] of texts.entries()) {
      const capture = await addAnsweredCapture(text, windowed.id);
      await db().capture.update({ where: { id: capture.id }, data: { finishedAt: new Date(Date.UTC(2026, 1, 1, 0, i)) } });
      answers.push(capture.id);
    }
    await db().$executeRaw`SELECT beacon_rollup_captures(${answers}::uuid[], 1)`;
    const keep = windowed.competitors.map((c) => ({ id: c.id, name: c.name }));
    await updateBrand(workspaceId, windowed.id, brandInputSchema.parse({ name: windowed.name, aliases: [], domains: [], competitors: keep }));
    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: windowed.id, status: "queued" } })).id);
    const lumi = keep.find((c) => c.name === "Lumi")!;
    await updateBrand(workspaceId, windowed.id, brandInputSchema.parse({ name: windowed.name, aliases: ["Nimbus"], domains: [], competitors: [lumi, { name: "Acme" }] }));
    const brand = await db().brand.findUniqueOrThrow({ where: { id: windowed.id }, select: BRAND_INPUTS });

    const batches: string[][] = [];
    for await (const ids of firstAnswerIds(workspaceId, brand, { windowSize: 2 })) batches.push(ids);
    // Windows of two answers: [0 1] [2 3] [4 5] [6]; each window's picks a batch of their own.
    expect(batches).toEqual([[answers[1]], [answers[3]], [answers[5]]]);

    // An edit between two windows ends the scan (the run stops at its next batch; the edit's run follows).
    const scan = firstAnswerIds(workspaceId, brand, { windowSize: 2 });
    expect((await scan.next()).value).toEqual([answers[1]]);
    await db().brand.update({ where: { id: windowed.id }, data: { analysisVersion: { increment: 1 } } });
    expect(await scan.next(), "the scan after an edit").toEqual({ done: true, value: undefined });
    await db().brand.update({ where: { id: windowed.id }, data: { analysisVersion: { decrement: 1 } } });

    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: windowed.id, status: "queued" } })).id);
    const after: string[][] = [];
    for await (const ids of firstAnswerIds(workspaceId, brand, { windowSize: 2 })) after.push(ids);
    expect(after, "nothing left to rewrite first once the run is done").toEqual([]);
    const { kept, rebuilt } = await rollupsAndRebuild(windowed.id);
    expect(kept).toEqual(rebuilt);
  });

  it("rewrites only the answers whose analysis changes: the others keep their rows and are stamped with the brand's version, and the rollups equal their rebuild", async () => {
    const steady = await db().brand.create({ data: { workspaceId, name: "Steady CRM", domains: ["steady.example"], competitors: { create: [{ workspaceId, name: "Zoho" }] } }, include: { competitors: true } });
    const competitors = steady.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains }));
    const edit = async (aliases: string[], domains: string[]) => {
      await updateBrand(workspaceId, steady.id, brandInputSchema.parse({ name: steady.name, aliases, domains, competitors }));
      await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: steady.id, status: "queued" } })).id);
    };
    const unchanged = await addAnsweredCapture("1. Steady CRM is simple.\n2. Zoho is cheaper. See https://steady.example/pricing", steady.id);
    const named = await addAnsweredCapture("1. **Lumi**: praised for its reporting.\n2. **Zoho**: cheaper.", steady.id);
    const cited = await addAnsweredCapture("Steady CRM, per https://review.example/crm", steady.id);
    for (const [capture, url] of [[unchanged, "https://steady.example/pricing"], [cited, "https://review.example/crm"]] as const) {
      await db().citation.create({ data: { workspaceId, captureId: capture.id, url, domain: url.split("/")[2]!, position: 1 } });
    }
    const all = [unchanged.id, named.id, cited.id];
    await db().$executeRaw`SELECT beacon_rollup_captures(${all}::uuid[], 1)`;
    await edit([], ["steady.example"]); // analyses all three as the brand is now
    const rows = async (captureId: string) => ({
      mentions: (await db().mention.findMany({ where: { captureId }, select: { id: true, name: true, mentioned: true, count: true }, orderBy: { id: "asc" } })),
      citations: await db().citation.findMany({ where: { captureId }, select: { id: true, domain: true, isOwnDomain: true } }),
      candidates: await db().captureCandidate.findMany({ where: { captureId }, select: { key: true } }),
    });
    const before = { unchanged: await rows(unchanged.id), named: await rows(named.id), cited: await rows(cited.id) };
    expect(before.named.candidates.map((c) => c.key)).toContain("lumi");

    // "Lumi" becomes the brand's alias (the second answer's mentions and candidates change) and
    // review.example its domain (the third's citation becomes its own); the first answer reads the same.
    await edit(["Lumi"], ["steady.example", "review.example"]);

    const after = { unchanged: await rows(unchanged.id), named: await rows(named.id), cited: await rows(cited.id) };
    expect(after.unchanged, "the unchanged answer's rows are the same rows, not written again").toEqual(before.unchanged);
    expect(after.named.mentions.find((m) => m.name === "Steady CRM")).toMatchObject({ mentioned: true, count: 1 });
    expect(after.named.candidates).toEqual([]);
    expect(after.cited.citations).toEqual([{ ...before.cited.citations[0], isOwnDomain: true }]);
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: steady.id } });
    expect(await db().capture.count({ where: { id: { in: all }, analysisVersion } }), "every answer stamped with the brand's version").toBe(3);
    expect(await db().analysisRun.findFirstOrThrow({ where: { brandId: steady.id }, orderBy: { createdAt: "desc" } })).toMatchObject({ status: "completed", done: 3 });
    const { kept, rebuilt } = await rollupsAndRebuild(steady.id);
    expect(kept).toEqual(rebuilt);
  });

  it("removes a competitor without rewriting its answers in the edit (every answer has its row): the re-analysis takes its mentions away, and the rollups equal their rebuild", async () => {
    // Before, the edit took every answer's rollup contribution away and added it back in its own
    // transaction: at a million answers it ran for many minutes, past the transaction's timeout,
    // holding the brand's captures, and failed.
    const pruned = await db().brand.create({ data: { workspaceId, name: "Pruned CRM", competitors: { create: [{ workspaceId, name: "Zoho" }, { workspaceId, name: "Lumi" }] } }, include: { competitors: true } });
    const [zoho, lumi] = ["Zoho", "Lumi"].map((name) => pruned.competitors.find((c) => c.name === name)!);
    const answers = [];
    for (const text of ["1. Zoho is cheaper.\n2. Pruned CRM is simpler.", "Lumi and Pruned CRM.", "Zoho only."]) answers.push((await addAnsweredCapture(text, pruned.id)).id);
    await db().$executeRaw`SELECT beacon_rollup_captures(${answers}::uuid[], 1)`;
    const keep = (competitors: { id: string; name: string }[]) => competitors.map((c) => ({ id: c.id, name: c.name }));
    await updateBrand(workspaceId, pruned.id, brandInputSchema.parse({ name: pruned.name, aliases: [], domains: [], competitors: keep([zoho!, lumi!]) }));
    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: pruned.id, status: "queued" } })).id);
    expect(await db().mention.count({ where: { competitorId: zoho!.id } }), "a row per answer, named or not").toBe(3);
    const rollups = async () => (await rollupsAndRebuild(pruned.id)).kept;
    const before = await rollups();

    await updateBrand(workspaceId, pruned.id, brandInputSchema.parse({ name: pruned.name, aliases: [], domains: [], competitors: keep([lumi!]) }));

    expect(await db().competitor.count({ where: { id: zoho!.id } }), "the competitor is gone at once").toBe(0);
    expect(await rollups(), "the edit wrote no rollup row").toEqual(before);
    expect(await db().mention.count({ where: { competitorId: zoho!.id } }), "its mentions wait for the re-analysis").toBe(3);
    // The dashboards no longer list it meanwhile: no share of voice line, no "loses to".
    const today = new Date();
    const filter = (await resolveFilter(workspaceId, analyticsFilterInput.parse({ brandId: pruned.id, from: isoDay(addDays(today, -1)), to: isoDay(today) })))!;
    expect((await shareOfVoiceOverTime(filter, { bucket: "auto" })).entities.map((e) => e.name)).toEqual(["Pruned CRM", "Lumi"]);
    expect((await promptPerformance(filter.filter)).map((p) => p.losesTo?.name ?? null)).not.toContain("Zoho");

    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: pruned.id, status: "queued" } });
    expect(run.total).toBe(3);
    await runReanalysis(run.id);

    expect(await db().mention.count({ where: { competitorId: zoho!.id } })).toBe(0);
    const { kept, rebuilt } = await rollupsAndRebuild(pruned.id);
    expect(kept).toEqual(rebuilt);
    expect(kept["rollup_mentions"]!.map((r) => (r as { entity: string }).entity)).not.toContain(zoho!.id);
    expect(await db().mention.findMany({ where: { captureId: answers[1] }, select: { name: true, mentioned: true }, orderBy: { name: "asc" } })).toEqual([
      { name: "Lumi", mentioned: true },
      { name: "Pruned CRM", mentioned: true },
    ]);
  });

  it("stages only the rollups whose families read the rows a batch changes: a competitor removed, mentions; an own domain added, citations", async () => {
    const staged = new Set<string>();
    // Each batch's stage tables (pg_temp.<rollup>_change, dropped at its commit), read in its transaction once both halves are staged.
    actAt(
      "rollups:new-staged",
      async ({ tx }) => {
        const tables = await tx!.$queryRaw<{ name: string }[]>`SELECT relname AS name FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r'`;
        for (const { name } of tables) staged.add(name.replace(/_change$/, ""));
      },
      Infinity,
    );
    const reading = (source: AnswerSource) => new Set(ROLLUPS.filter((r) => r.family.reads.includes(source)).map((r) => r.table));
    const staging = await db().brand.create({ data: { workspaceId, name: "Staging CRM", competitors: { create: [{ workspaceId, name: "Zoho" }, { workspaceId, name: "Lumi" }] } }, include: { competitors: true } });
    const answers = [];
    for (const text of ["1. Zoho is cheaper.\n2. Staging CRM is simpler.", "Lumi and Staging CRM."]) answers.push((await addAnsweredCapture(text, staging.id)).id);
    for (const captureId of answers) await db().citation.create({ data: { workspaceId, captureId, url: "https://staging-crm.example/pricing", domain: "staging-crm.example", position: 1 } });
    await db().$executeRaw`SELECT beacon_rollup_captures(${answers}::uuid[], 1)`;
    const lumi = staging.competitors.find((c) => c.name === "Lumi")!;
    const edit = async (domains: string[]) => {
      await updateBrand(workspaceId, staging.id, brandInputSchema.parse({ name: staging.name, aliases: [], domains, competitors: [{ id: lumi.id, name: lumi.name }] }));
      staged.clear();
      await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId: staging.id, status: "queued" } })).id);
      expect((await rollupsAndRebuild(staging.id)).kept).toEqual((await rollupsAndRebuild(staging.id)).rebuilt);
      return new Set(staged);
    };

    expect(await edit([]), "Zoho removed: every answer's mention rows change, nothing else").toEqual(reading("mentions"));
    expect(await edit(["staging-crm.example"]), "its own domain added: the answers' citations become its own, nothing else").toEqual(reading("citations"));
    expect(reading("mentions")).not.toEqual(reading("citations"));
  });

  it("counts an attempt's work again when a run starts again: what an earlier attempt did is done, what was recorded since is to do", async () => {
    const again = await db().brand.create({ data: { workspaceId, name: "Again CRM", competitors: { create: [{ workspaceId, name: "Zoho" }] } }, include: { competitors: true } });
    const answers = [];
    for (const text of ["Zoho and Again CRM.", "Again CRM.", "Zoho."]) answers.push((await addAnsweredCapture(text, again.id)).id);
    await updateBrand(workspaceId, again.id, brandInputSchema.parse({ name: again.name, aliases: ["Again"], domains: [], competitors: [] }));
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: again.id, status: "queued" } });
    expect(run).toMatchObject({ total: 3, done: 0 });
    // As a failed attempt that was not the job's last leaves it: two answers done, the run waiting again.
    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: again.id } });
    await db().capture.updateMany({ where: { id: { in: answers.slice(0, 2) } }, data: { analysisVersion } });
    await db().analysisRun.update({ where: { id: run.id }, data: { status: "queued", done: 2, error: "connection lost" } });
    const recorded = await addAnsweredCapture("Again CRM, recorded since.", again.id);
    expect(recorded.analysisVersion, "an answer stored without analysis").toBeNull();

    let seen: unknown;
    actAt("reanalysis:batch-before-commit", async () => {
      seen = await db().analysisRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, total: true, done: true, error: true } });
    });
    await runReanalysis(run.id);
    expect(seen, "the second attempt, at its first batch").toEqual({ status: "running", total: 2, done: 0, error: null });
    expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", total: 2, done: 2 });
  });

  it("decides a brand's state by its open run over a later one that completed: the Brands page, the dashboards and the alerts agree", async () => {
    const decided = await db().brand.create({ data: { workspaceId, name: "Decided CRM" } });
    const older = await db().analysisRun.create({ data: { workspaceId, brandId: decided.id, status: "queued", total: 5, createdAt: new Date(Date.now() - 60_000) } });
    await db().analysisRun.create({ data: { workspaceId, brandId: decided.id, status: "completed", total: 3, done: 3 } });
    expect((await reanalysisByBrand(workspaceId))[decided.id]).toMatchObject({ status: "queued", total: 5 });
    expect((await brandsMidReanalysis(workspaceId)).get(decided.id)).toBe("running");
    await db().analysisRun.update({ where: { id: older.id }, data: { status: "completed" } });
    expect((await reanalysisByBrand(workspaceId))[decided.id]).toMatchObject({ status: "completed", total: 3 });
    expect((await brandsMidReanalysis(workspaceId)).has(decided.id)).toBe(false);
  });

  it("reuses a run that has not started yet instead of queueing another", async () => {
    const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });
    const input = brandInputSchema.parse({ name: brand.name, aliases: brand.aliases, domains: brand.domains, competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })) });
    await updateBrand(workspaceId, brandId, input);
    await updateBrand(workspaceId, brandId, input);
    expect(await db().analysisRun.count({ where: { brandId, status: "queued" } })).toBe(1);
  });

  it("reads only the start of a very long answer, like the worker, and flags the capture", async () => {
    const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });
    const rival = brand.competitors[0]!.name;
    const long = await addAnsweredCapture(`${brand.name} is a fine choice. ${"Plain filler words. ".repeat(ANALYSIS_MAX_CHARS / 19)}${rival} comes too late.`);
    const short = await addAnsweredCapture(`${brand.name} and ${rival} are both fine.`);
    await db().capture.update({ where: { id: short.id }, data: { analysisTruncated: true } }); // the flag follows the analysis

    const input = brandInputSchema.parse({ name: brand.name, aliases: brand.aliases, domains: brand.domains, competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })) });
    await updateBrand(workspaceId, brandId, input);
    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId }, orderBy: { createdAt: "desc" } })).id);

    const mentioned = async (captureId: string) => (await db().mention.findMany({ where: { captureId, mentioned: true } })).map((m) => m.name).sort();
    expect(await mentioned(long.id)).toEqual([brand.name]);
    expect(await mentioned(short.id)).toEqual([brand.name, rival].sort());
    expect((await getCaptureDetail(workspaceId, long.id)).analysisTruncated).toBe(true);
    expect((await getCaptureDetail(workspaceId, short.id)).analysisTruncated).toBe(false);
  });

  it("recomputes stored citation domains with today's rules (private suffixes), and the domain rollups follow", async () => {
    // Stored before registrable domains counted the public suffix list's private section.
    const capture = await addAnsweredCapture("See https://acme.github.io/crm and https://www.capterra.com.de/crm.");
    await db().citation.createMany({
      data: [
        { workspaceId, captureId: capture.id, url: "https://acme.github.io/crm", domain: "github.io", position: 1 },
        { workspaceId, captureId: capture.id, url: "https://www.capterra.com.de/crm", domain: "com.de", position: 2 },
      ],
    });
    await db().$executeRaw`SELECT beacon_rollup_captures(${[capture.id]}::uuid[], 1)`;
    const rolledUp = async () => {
      const rows = await db().citationRollup.groupBy({ by: ["domain"], where: { brandId, domain: { in: ["github.io", "com.de", "acme.github.io", "capterra.com.de"] } }, _sum: { citations: true } });
      return Object.fromEntries(rows.map((r) => [r.domain, r._sum.citations ?? 0]).filter(([, n]) => n !== 0));
    };
    expect(await rolledUp()).toEqual({ "github.io": 1, "com.de": 1 });
    const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });
    await updateBrand(
      workspaceId,
      brandId,
      brandInputSchema.parse({ name: brand.name, aliases: brand.aliases, domains: [...brand.domains, "acme.github.io"], competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })) }),
    );
    await runReanalysis((await db().analysisRun.findFirstOrThrow({ where: { brandId }, orderBy: { createdAt: "desc" } })).id);

    const citations = await db().citation.findMany({ where: { captureId: capture.id }, orderBy: { position: "asc" }, select: { domain: true, isOwnDomain: true } });
    expect(citations).toEqual([
      { domain: "acme.github.io", isOwnDomain: true },
      { domain: "capterra.com.de", isOwnDomain: false },
    ]);
    expect(await rolledUp()).toEqual({ "acme.github.io": 1, "capterra.com.de": 1 });
    // The old domains' rows are gone from every domain rollup, not left at zero (a list of domains
    // that reads rows would show them).
    for (const table of ["rollup_citations", "rollup_domains", "rollup_tag_domains", "rollup_domain_weeks", "rollup_tag_domain_weeks"]) {
      const left = await db().$queryRawUnsafe<{ domain: string }[]>(`SELECT domain FROM ${table} WHERE "brandId" = $1::uuid AND domain IN ('github.io', 'com.de')`, brandId);
      expect(left, table).toEqual([]);
    }
  });

  it("runs a batch again when PostgreSQL picks it as a deadlock's victim, and counts it once", async () => {
    const capture = await addAnsweredCapture("Acme is fine.");
    // The batch's last statement (its progress) fails once with a deadlock, as the victim of one
    // against a worker recording an answer would: injected in the database (a sequence counts the
    // tries, since the failed batch's own writes roll back), the rest is real.
    await db().$executeRawUnsafe(`CREATE SEQUENCE test_batch_tries`);
    await db().$executeRawUnsafe(`
      CREATE FUNCTION test_deadlock_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.done > OLD.done AND nextval('test_batch_tries') = 1 THEN
          RAISE EXCEPTION 'deadlock detected (injected)' USING ERRCODE = '40P01';
        END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_deadlock_once BEFORE UPDATE OF done ON analysis_runs FOR EACH ROW EXECUTE FUNCTION test_deadlock_once()`);
    try {
      const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId }, include: { competitors: true } });
      await updateBrand(
        workspaceId,
        brandId,
        brandInputSchema.parse({ name: brand.name, aliases: [...brand.aliases, "Acme"], domains: brand.domains, competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })) }),
      );
      const run = await db().analysisRun.findFirstOrThrow({ where: { brandId }, orderBy: { createdAt: "desc" } });
      await runReanalysis(run.id);
      const total = await db().capture.count({ where: { brandId, status: "succeeded", answerText: { not: null } } });
      expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", done: total, error: null });
      expect(Number((await db().$queryRaw<{ n: bigint }[]>`SELECT last_value AS n FROM test_batch_tries`)[0]!.n), "the batch ran twice").toBe(2);
      expect((await getCaptureDetail(workspaceId, capture.id))?.mentions.find((m) => m.kind === "brand")).toMatchObject({ mentioned: true });
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_deadlock_once ON analysis_runs`);
      await db().$executeRawUnsafe(`DROP FUNCTION test_deadlock_once()`);
      await db().$executeRawUnsafe(`DROP SEQUENCE test_batch_tries`);
    }
  });

  it("re-scores every stored answer after a change of the sentiment rule (migration sentiment_clauses), one run per brand, and the rollups follow", async () => {
    const brand = await db().brand.findUniqueOrThrow({ where: { id: brandId } });
    // Whatever earlier tests left queued is done first, so every answer is at the brand's version.
    for (const run of await db().analysisRun.findMany({ where: { brandId, status: "queued" } })) await runReanalysis(run.id);
    // An answer as the old rule stored it (AFINN over the sentence: "more" and "needs" read positive).
    const capture = await addAnsweredCapture(`${brand.name} may be more than a small team needs, with a lengthy setup.`);
    await db().capture.update({ where: { id: capture.id }, data: { analyzedAt: new Date(), analysisVersion: brand.analysisVersion } });
    await db().mention.create({ data: { workspaceId, captureId: capture.id, kind: "brand", brandId, name: brand.name, mentioned: true, count: 1, position: 1, sentiment: "positive" } });
    await db().$executeRaw`SELECT beacon_rollup_captures(${[capture.id]}::uuid[], 1)`;
    const sentiments = async () => (await db().answerRollup.aggregate({ where: { brandId }, _sum: { positive: true, neutral: true, negative: true } }))._sum;
    const before = await sentiments();
    const answers = await db().capture.count({ where: { brandId, status: "succeeded" } });
    expect(await db().capture.count({ where: { brandId, status: "succeeded", analysisVersion: brand.analysisVersion } })).toBe(answers);

    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, "20261207150000_sentiment_clauses", "migration.sql"), "utf8");
    await db().$executeRawUnsafe(sql);

    expect((await db().brand.findUniqueOrThrow({ where: { id: brandId } })).analysisVersion).toBe(brand.analysisVersion + 1);
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId, status: "queued" } });
    expect(run.total).toBe(answers);
    const jobs = await db().$queryRaw<{ runId: string }[]>`
      SELECT j.payload->>'analysisRunId' AS "runId" FROM graphile_worker.jobs v JOIN graphile_worker._private_jobs j ON j.id = v.id
      WHERE v.task_identifier = 'reanalyze' AND v.queue_name = ${`reanalyze:${brandId}`}`;
    expect(jobs.map((j) => j.runId)).toContain(run.id);

    await runReanalysis(run.id);

    expect(await db().analysisRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "completed", done: answers });
    expect(await db().capture.count({ where: { brandId, status: "succeeded", analysisVersion: brand.analysisVersion + 1 } })).toBe(answers);
    expect(await db().mention.findFirstOrThrow({ where: { captureId: capture.id, kind: "brand" } })).toMatchObject({ mentioned: true, sentiment: "negative" });
    const after = await sentiments();
    expect(after.negative! - before.negative!).toBeGreaterThanOrEqual(1);
    expect(after.positive! + after.neutral! + after.negative!).toBe(before.positive! + before.neutral! + before.negative!);
  });
});

describe("a brand edit that reuses the run that has not started", () => {
  async function racerBrand(name: string) {
    const brand = await db().brand.create({ data: { workspaceId, name } });
    const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId, connection: { adapter: "simulator" } } });
    const prompt = await db().prompt.findFirstOrThrow({ where: { workspaceId } });
    const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: 1, status: "completed" } });
    const capture = await db().capture.create({
      data: { workspaceId, checkId: check.id, brandId: brand.id, promptId: prompt.id, providerConfigId: provider.id, connectionId: provider.connectionId, sample: 1, status: "succeeded", maxAttempts: 3, model: "m", searchMode: "off", answerText: "Racer and Sprinto are both fine.", finishedAt: new Date() },
    });
    const edit = (aliases: string[], competitors: string[]) => updateBrand(workspaceId, brand.id, brandInputSchema.parse({ name: brand.name, aliases, domains: [], competitors: competitors.map((name) => ({ name })) }));
    await edit(["Racer"], []);
    const first = await db().analysisRun.findFirstOrThrow({ where: { brandId: brand.id, status: "queued" } });
    /** The answer ends analysed with the brand's latest inputs: the edit's competitor is found. */
    const expectUpToDate = async () => {
      const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: brand.id } });
      expect((await db().capture.findUniqueOrThrow({ where: { id: capture.id } })).analysisVersion).toBe(analysisVersion);
      expect((await db().mention.findMany({ where: { captureId: capture.id, mentioned: true } })).map((m) => m.name).sort()).toEqual([name, "Sprinto"]);
    };
    return { brand, edit, first, expectUpToDate };
  }

  it("a run starting while the edit reuses it waits for the edit, then reads the brand after it: one run brings the answer up to date", async () => {
    const { brand, edit, first, expectUpToDate } = await racerBrand("Racer CRM");
    // The second edit holds the waiting run; the run starts now and waits for the edit's commit.
    const gate = gateAt("reanalysis:waiting-run-found");
    const second = edit(["Racer"], ["Sprinto"]);
    await gate.reached;
    const running = runReanalysis(first.id);
    await waitForLockWaiter();
    gate.open();
    await second;
    await running;

    const runs = await db().analysisRun.findMany({ where: { brandId: brand.id } });
    expect(runs.map((r) => [r.id, r.status])).toEqual([[first.id, "completed"]]);
    await expectUpToDate();
  });

  it("queues its own run when that run has started, so every answer ends analysed with the brand's latest inputs", async () => {
    const { brand, edit, first, expectUpToDate } = await racerBrand("Racer Cloud");
    // Started (it may have read the brand before this edit): not reused; it stops at its first batch.
    await db().analysisRun.update({ where: { id: first.id }, data: { status: "running" } });
    await edit(["Racer"], ["Sprinto"]);
    const queued = await db().analysisRun.findMany({ where: { brandId: brand.id, status: "queued" } });
    expect(queued).toHaveLength(1);
    expect(queued[0]!.id).not.toBe(first.id);
    await runReanalysis(first.id);
    await runReanalysis(queued[0]!.id);
    await expectUpToDate();
  });
});
