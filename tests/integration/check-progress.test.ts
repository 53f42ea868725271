// The check page's poll by deltas (lib/checks/progress.ts): each answer carries the changes since
// the version the browser sent, and the state the browser builds from them is the state a full
// read would give, also when a capture's update was still uncommitted while a poll read. No
// worker runs here: captures are moved with SQL, the way the lifecycle's statements move them,
// from this connection or from a second one that holds its transaction open across polls.
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { newBrowser, type Browser } from "../support/request-context";
import { setUpDemo, startCheck, type Demo } from "../support/check-fixtures";
import { checkProgressAction } from "@/lib/actions/checks";
import { signInAction } from "@/lib/actions/auth";
import { CAPTURE_STATUSES } from "@/lib/captures/states";
import { checkProgress } from "@/lib/checks/progress";
import { applyProgress, GRID_PAGE_CELLS, GRID_TEXT_CHARS, type ProgressAnswer, type ProgressState } from "@/lib/checks/progress-state";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { db } from "@/lib/db/prisma";
import { DEMO_LOGIN } from "@/lib/seed/demo-content";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let demo: Demo;
/** 12 prompts × 4 providers × 1 sample: one page. */
let small: string;
/** 12 prompts × 4 providers × 3 samples = 144 cells: 8 prompts (96 cells) on page 1, 4 on page 2. */
let paged: string;

beforeAll(async () => {
  demo = await setUpDemo();
  const providers = { ids: Object.values(demo.providers).map((p) => p.id) };
  small = (await startCheck(demo, { prompts: { mode: "picked", promptIds: demo.promptIds }, providers, samples: 1 })).checkId;
  paged = (await startCheck(demo, { prompts: { mode: "picked", promptIds: demo.promptIds }, providers, samples: 3 })).checkId;
});

const read = (checkId: string, page: number, version?: string) => checkProgress(demo.workspaceId, checkId, { page, version });

/** One poll of `page` holding `held`, applied the way the page applies it. */
async function poll(checkId: string, page: number, held?: ProgressState): Promise<{ state: ProgressState; answer: ProgressAnswer }> {
  const answer = await read(checkId, page, held?.version);
  return { state: applyProgress(held, answer), answer };
}

/** What a browser that has never polled would be given. */
const fullRead = async (checkId: string, page: number) => (await poll(checkId, page)).state;

const withoutVersion = ({ version: _, ...rest }: ProgressState) => rest;

async function captureIds(checkId: string): Promise<string[]> {
  const rows = await db().capture.findMany({ where: { checkId }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((r) => r.id);
}

async function setCapture(id: string, sql: string, client?: pg.Client) {
  const statement = `UPDATE captures SET ${sql}, "updatedAt" = now() WHERE id = $1`;
  if (client) await client.query(statement, [id]);
  else await db().$executeRawUnsafe(statement, id);
}

/** A transaction that takes an id and commits. */
const laterCommit = () => db().$queryRaw`SELECT pg_current_xact_id()::text`;

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  return client;
}

describe("progress by deltas", () => {
  it("sends the grid and every cell first, then only what changed, and nothing when nothing did", async () => {
    const [target, other] = await captureIds(small);
    const first = await poll(small, 1);
    expect(first.answer.full).toBe(true);
    expect(first.answer.grid).toMatchObject({ page: 1, pages: 1, totalPrompts: 12, samples: 1 });
    expect(first.answer.grid!.providers.map((p) => p.name)).toEqual(["ChatGPT", "Claude", "Gemini", "Perplexity"]);
    expect(first.state.cells).toHaveLength(48);
    expect(first.state.check.counts).toMatchObject({ total: 48, queued: 48, running: 0 });

    const idle = await poll(small, 1, first.state);
    expect(idle.answer).toMatchObject({ full: false, cells: [] });
    expect(idle.answer.grid).toBeUndefined();

    await setCapture(target!, `status = 'failed', "attemptCount" = 2, "lastError" = 'Simulated invalid request (400)'`);
    const changed = await poll(small, 1, idle.state);
    expect(changed.answer.cells.map((c) => c[0])).toEqual([target]);
    expect(changed.answer.errors).toEqual(["Simulated invalid request (400)"]);
    expect(changed.state.cells.find((c) => c.id === target)).toMatchObject({ status: "failed", attemptCount: 2, lastError: "Simulated invalid request (400)" });
    expect(changed.state.check.counts).toMatchObject({ queued: 47, failed: 1 });
    expect(withoutVersion(changed.state)).toEqual(withoutVersion(await fullRead(small, 1)));

    // A streaming answer saved every second changes nothing the grid shows: nothing is sent.
    await setCapture(other!, `"answerText" = 'Streaming…', "answerIsPartial" = true, "answerUpdatedAt" = now()`);
    expect((await poll(small, 1, changed.state)).answer.cells).toEqual([]);
  });

  it("still delivers an update whose transaction started before a poll and committed after it", async () => {
    const [, , target] = await captureIds(small);
    const before = (await poll(small, 1)).state;
    const writer = await connect();
    try {
      await writer.query("BEGIN");
      await setCapture(target!, `status = 'running', "attemptCount" = 1, "latencyMs" = NULL`, writer);
      const { rows } = await writer.query<{ started: Date }>("SELECT now() AS started");
      // A later transaction commits first, so the poll's snapshot reaches past the writer's id
      // and only its list of transactions in progress says the writer had not committed.
      await laterCommit();

      const during = await poll(small, 1, before);
      expect(during.answer.cells).toEqual([]); // not committed: the poll cannot see it
      expect(during.state.cells.find((c) => c.id === target)?.status).toBe("queued");
      const [{ polledAt }] = await db().$queryRaw<[{ polledAt: Date }]>`SELECT clock_timestamp() AS "polledAt"`;

      await writer.query("COMMIT");
      // The committed row carries its transaction's start time, before the poll it missed: a
      // poll asking for "updatedAt > last poll" would never send it.
      expect(rows[0]!.started.getTime()).toBeLessThan(polledAt.getTime());

      const after = await poll(small, 1, during.state);
      expect(after.answer.cells.map((c) => c[0])).toEqual([target]);
      expect(after.state.cells.find((c) => c.id === target)?.status).toBe("running");
      expect(withoutVersion(after.state)).toEqual(withoutVersion(await fullRead(small, 1)));
    } finally {
      await writer.query("ROLLBACK").catch(() => {});
      await writer.end();
    }
  });

  it("delivers the write of a transaction that had its id before the poll but wrote after it", async () => {
    const [, , , target] = await captureIds(small);
    const before = (await poll(small, 1)).state;
    const writer = await connect();
    try {
      await writer.query("BEGIN");
      await writer.query("SELECT pg_current_xact_id()");
      await laterCommit();
      const during = await poll(small, 1, before);
      await setCapture(target!, `status = 'succeeded', "latencyMs" = 1234, "costMicros" = 3100`, writer);
      await writer.query("COMMIT");
      const after = await poll(small, 1, during.state);
      expect(after.state.cells.find((c) => c.id === target)).toMatchObject({ status: "succeeded", latencyMs: 1234, costMicros: 3100 });
    } finally {
      await writer.query("ROLLBACK").catch(() => {});
      await writer.end();
    }
  });

  it("says of each succeeded capture whether the brand was named and its position, and sends a re-analysed capture again", async () => {
    const ids = await captureIds(small);
    const [second, unnamed, unanalysed] = ids.slice(-3);
    const capture = await db().capture.findUniqueOrThrow({ where: { id: second! }, select: { brandId: true, workspaceId: true } });
    const brandMention = (captureId: string, mentioned: boolean, position: number | null) =>
      db().mention.create({ data: { workspaceId: capture.workspaceId, captureId, kind: "brand", brandId: capture.brandId, name: "Brand", mentioned, count: mentioned ? 1 : 0, position } });
    const before = (await poll(small, 1)).state;
    expect(before.cells.find((c) => c.id === second)).toMatchObject({ brandNamed: null, brandPosition: null });

    // The lifecycle writes the mentions in the transaction that records the answer (beacon_succeed).
    await brandMention(second!, true, 2);
    await brandMention(unnamed!, false, null);
    for (const id of [second, unnamed, unanalysed]) await setCapture(id!, `status = 'succeeded', "latencyMs" = 900, "analyzedAt" = now()`);
    const after = await poll(small, 1, before);
    expect(after.state.cells.find((c) => c.id === second)).toMatchObject({ status: "succeeded", brandNamed: true, brandPosition: 2 });
    expect(after.state.cells.find((c) => c.id === unnamed)).toMatchObject({ brandNamed: false, brandPosition: null });
    // Succeeded but without mention rows (an answer stored without its analysis): unknown, not "not named".
    expect(after.state.cells.find((c) => c.id === unanalysed)).toMatchObject({ brandNamed: null, brandPosition: null });
    expect(withoutVersion(after.state)).toEqual(withoutVersion(await fullRead(small, 1)));

    // A re-analysis (lib/brands/reanalysis.ts) rewrites the mentions and stamps analyzedAt: the cell comes again.
    await db().mention.updateMany({ where: { captureId: unnamed!, kind: "brand" }, data: { mentioned: true, count: 1, position: 1 } });
    await setCapture(unnamed!, `"analyzedAt" = now() + interval '1 second'`);
    const reanalysed = await poll(small, 1, after.state);
    expect(reanalysed.answer.cells.map((c) => c[0])).toEqual([unnamed]);
    expect(reanalysed.state.cells.find((c) => c.id === unnamed)).toMatchObject({ brandNamed: true, brandPosition: 1 });
    expect(withoutVersion(reanalysed.state)).toEqual(withoutVersion(await fullRead(small, 1)));
  });

  it("pages a large grid: at most GRID_PAGE_CELLS cells per answer, each page's own prompts, a version of another page gets a full page", async () => {
    const one = await poll(paged, 1);
    const two = await poll(paged, 2);
    expect(one.answer.grid).toMatchObject({ page: 1, pages: 2, rowsPerPage: 8, totalPrompts: 12 });
    expect(one.state.cells).toHaveLength(96);
    expect(two.state.cells).toHaveLength(48);
    expect(one.state.cells.length).toBeLessThanOrEqual(GRID_PAGE_CELLS);
    const texts = await db().prompt.findMany({ where: { id: { in: demo.promptIds } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { text: true } });
    expect([...one.state.grid.prompts, ...two.state.grid.prompts]).toEqual(texts.map((t) => t.text));
    const onPageOne = new Set(one.state.cells.map((c) => c.id));
    expect(two.state.cells.filter((c) => onPageOne.has(c.id))).toEqual([]);

    const crossed = await read(paged, 2, one.state.version);
    expect(crossed.full).toBe(true);
    expect(crossed.grid?.page).toBe(2);
    expect(crossed.cells).toHaveLength(48);

    // A page past the end shows the last one.
    expect((await read(paged, 9)).grid).toMatchObject({ page: 2 });
  });

  it("shows one market's prompts when asked: the check's markets with their prompt counts, each row's market, and full cells for another market's version", async () => {
    const all = await poll(small, 1);
    const prompts = await db().prompt.findMany({ where: { id: { in: demo.promptIds } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { text: true, country: true, language: true } });
    const keys = prompts.map((p) => `${p.country ?? ""}:${p.language ?? ""}`);
    expect(all.state.grid.markets.map((m) => m.key).sort()).toEqual([...new Set(keys)].sort());
    expect(all.state.grid.markets.find((m) => m.key === ":")).toMatchObject({ label: "Prompts without a market", prompts: keys.filter((k) => k === ":").length });
    expect(all.state.grid).toMatchObject({ market: null, totalPrompts: 12 });
    expect(all.state.grid.rowMarkets).toHaveLength(12);
    expect(all.state.grid.rowMarkets[keys.indexOf("RU:ru")]).toBe("Russia · Russian");
    // One prompt has a market or not; "Prompts without a market" names the group.
    expect(all.state.grid.rowMarkets[keys.indexOf(":")]).toBe("No market set");

    const russian = await checkProgress(demo.workspaceId, small, { page: 1, market: "RU:ru", version: all.state.version });
    expect(russian.full, "another market's version gets every cell").toBe(true);
    expect(russian.grid).toMatchObject({ market: "RU:ru", totalPrompts: 1, pages: 1, prompts: [prompts[keys.indexOf("RU:ru")]!.text], rowMarkets: ["Russia · Russian"] });
    expect(russian.cells).toHaveLength(4);
    // A market the check does not have shows every prompt.
    expect((await checkProgress(demo.workspaceId, small, { page: 1, market: "FR:fr" })).grid).toMatchObject({ market: null, totalPrompts: 12 });
  });

  it("sends the grid again when a prompt is edited or a provider renamed, cutting long texts", async () => {
    const held = (await poll(small, 1)).state;
    const promptId = demo.promptIds[0]!;
    const long = `How does every CRM compare ${"on price and support ".repeat(20)}?`;
    const original = await db().prompt.findUniqueOrThrow({ where: { id: promptId } });
    try {
      await db().prompt.update({ where: { id: promptId }, data: { text: long } });
      const edited = await poll(small, 1, held);
      expect(edited.answer.grid).toBeDefined();
      expect(edited.answer.cells).toEqual([]);
      const shown = edited.state.grid.prompts.find((text) => text.startsWith("How does every CRM compare"))!;
      expect(shown).toHaveLength(GRID_TEXT_CHARS);
      expect(shown.endsWith("…")).toBe(true);
      expect(long.startsWith(shown.slice(0, -1))).toBe(true);
      await db().providerConfig.update({ where: { id: demo.providers.Claude.id }, data: { name: "Claude (work)" } });
      const renamed = await poll(small, 1, edited.state);
      expect(renamed.state.grid.providers.map((p) => p.name)).toContain("Claude (work)");
    } finally {
      await db().prompt.update({ where: { id: promptId }, data: { text: original.text } });
      await db().providerConfig.update({ where: { id: demo.providers.Claude.id }, data: { name: "Claude" } });
    }
  });

  it("refuses a malformed version or one of another check, and gives a full answer for a snapshot from the future", async () => {
    const version = (await read(small, 1)).version;
    for (const bad of ["nonsense", version.replace(/^p2/, "p1"), `${version}.x`, version.replace(/\.[0-9a-f]{16}\./, ".zz."), version.replace(/[^.]+$/, "abc"), `${version.slice(0, version.lastIndexOf("."))}.10:5:`,
      // What PostgreSQL's pg_snapshot refuses (a 500 when it reached the query): id 0, ids out of order, past 64 bits.
      `${version.slice(0, version.lastIndexOf("."))}.0:0:`,
      `${version.slice(0, version.lastIndexOf("."))}.5:10:7,6`,
      `${version.slice(0, version.lastIndexOf("."))}.1:99999999999999999999:`,
    ]) {
      await expect(read(small, 1, bad), bad).rejects.toMatchObject({ code: "invalid_version", message: "This progress version is not valid. Reload the page." });
    }
    await expect(read(paged, 1, version)).rejects.toMatchObject({ code: "invalid_version", message: "This progress version belongs to another check." });

    const future = version.replace(/[^.]+$/, "9000000000000:9000000000000:");
    const answer = await read(small, 1, future);
    expect(answer.full).toBe(true);
    expect(answer.cells).toHaveLength(48);
  });
});

describe("the progress action", () => {
  let owner: Browser;
  let stranger: Person;
  let strangersCheck: string;

  beforeAll(async () => {
    owner = newBrowser();
    ok(await owner.run(() => signInAction({ email: DEMO_LOGIN.email, password: DEMO_LOGIN.password })));
    stranger = await signUp({ name: "Sam Stranger", workspaceName: "Elsewhere" });
    // The stranger's own check, on a simulator a new workspace starts with.
    const brand = await db().brand.create({ data: { workspaceId: stranger.workspaceId, name: "Bravo" } });
    const prompt = await db().prompt.create({ data: { workspaceId: stranger.workspaceId, text: "Which cola tastes best?" } });
    const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: stranger.workspaceId, connection: { adapter: "simulator" } } });
    const body = { prompts: { mode: "picked" as const, promptIds: [prompt.id] }, providers: { ids: [provider.id] }, samples: 1 };
    strangersCheck = (
      await createCheck({ workspaceId: stranger.workspaceId, brandId: brand.id, idempotencyKey: "stranger-1", requestHash: hashRequest(body), startedById: stranger.userId, ...body })
    ).checkId;
  });

  afterAll(async () => {
    await db().check.deleteMany({ where: { workspaceId: stranger.workspaceId } });
  });

  it("answers the caller's own check with deltas", async () => {
    const first = ok(await owner.run(() => checkProgressAction({ checkId: small })));
    expect(first.full).toBe(true);
    const next = ok(await owner.run(() => checkProgressAction({ checkId: small, version: first.version })));
    expect(next).toMatchObject({ full: false, cells: [] });
  });

  it("refuses another workspace's check id, with or without its version, and that workspace's version on the caller's own check", async () => {
    const theirs = ok(await owner.run(() => checkProgressAction({ checkId: small })));
    refused(await stranger.browser.run(() => checkProgressAction({ checkId: small })), "not_found");
    refused(await stranger.browser.run(() => checkProgressAction({ checkId: small, version: theirs.version })), "not_found");
    refused(await stranger.browser.run(() => checkProgressAction({ checkId: strangersCheck, version: theirs.version })), "invalid_version");
    // And the other way round.
    const mine = ok(await stranger.browser.run(() => checkProgressAction({ checkId: strangersCheck })));
    expect(mine.cells).toHaveLength(1);
    refused(await owner.run(() => checkProgressAction({ checkId: strangersCheck })), "not_found");
    refused(await owner.run(() => checkProgressAction({ checkId: small, version: mine.version })), "invalid_version");
  });
});

// Random schedules of capture updates (committed at once, or held open in a second connection
// across polls and then committed or rolled back), answer-only writes, and polls of either page
// of the paged check: after every poll, the page as the deltas built it equals a full read.
describe("property: deltas rebuild the full state", () => {
  const statuses = fc.constantFrom(...CAPTURE_STATUSES);
  const change = fc.oneof(
    statuses.map((s) => `status = '${s}'`),
    fc.integer({ min: 0, max: 5 }).map((n) => `"attemptCount" = ${n}`),
    fc.option(fc.integer({ min: 1, max: 90_000 })).map((ms) => `"latencyMs" = ${ms ?? "NULL"}`),
    fc.integer({ min: 0, max: 50_000 }).map((micros) => `"costMicros" = ${micros}`),
    fc.option(fc.constantFrom("Simulated rate limit (429)", "Simulated invalid request (400)", "x".repeat(300))).map((e) => `"lastError" = ${e === null ? "NULL" : `'${e}'`}`),
    fc.constantFrom("NULL", "'budget'", "'breaker'").map((w) => `"waitingFor" = ${w}`),
  );
  type Step =
    | { kind: "update"; capture: number; set: string }
    | { kind: "hold"; capture: number; set: string }
    | { kind: "answer"; capture: number }
    | { kind: "commit" }
    | { kind: "rollback" }
    | { kind: "poll"; page: 1 | 2 };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("update" as const), capture: fc.nat(143), set: change }),
    fc.record({ kind: fc.constant("hold" as const), capture: fc.nat(143), set: change }),
    fc.record({ kind: fc.constant("answer" as const), capture: fc.nat(143) }),
    fc.record({ kind: fc.constant("commit" as const) }),
    fc.record({ kind: fc.constant("rollback" as const) }),
    fc.record({ kind: fc.constant("poll" as const), page: fc.constantFrom(1 as const, 2 as const) }),
  );

  it("for random schedules of updates, held transactions and polls", { timeout: 240_000 }, async () => {
    const ids = await captureIds(paged);
    const writer = await connect();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
          const held = new Map<number, ProgressState>();
          for (const page of [1, 2]) held.set(page, (await poll(paged, page)).state);
          const locked = new Set<string>();
          // A held status change also holds the check's row (its counts): no status change may
          // wait behind it from this connection.
          let holdsCheck = false;
          const end = async (how: "COMMIT" | "ROLLBACK") => {
            if (!locked.size) return;
            await writer.query(how);
            locked.clear();
            holdsCheck = false;
          };
          const pollAndCompare = async (page: number) => {
            const state = (await poll(paged, page, held.get(page))).state;
            held.set(page, state);
            expect(withoutVersion(state)).toEqual(withoutVersion(await fullRead(paged, page)));
          };
          try {
            for (const s of steps) {
              if (s.kind === "poll") await pollAndCompare(s.page);
              else if (s.kind === "commit" || s.kind === "rollback") await end(s.kind === "commit" ? "COMMIT" : "ROLLBACK");
              else {
                const id = ids[s.capture]!;
                const set = s.kind === "answer" ? `"answerText" = md5(random()::text)` : s.set;
                const movesStatus = set.startsWith("status");
                if (s.kind === "hold") {
                  if (!locked.size) await writer.query("BEGIN");
                  locked.add(id);
                  holdsCheck ||= movesStatus;
                  await setCapture(id, set, writer);
                } else if (!locked.has(id) && !(holdsCheck && movesStatus)) {
                  // A row the held transaction has locked would wait for it: skip those.
                  await setCapture(id, set);
                }
              }
            }
            await end("COMMIT");
            for (const page of [1, 2]) await pollAndCompare(page);
          } finally {
            await end("ROLLBACK");
          }
        }),
        { numRuns: 30 },
      );
    } finally {
      await writer.end();
    }
  });
});
