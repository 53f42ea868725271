import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { batchPath, type BatchLine } from "@/lib/analytics/batch";

// The browser's side of the batch (chart-batch.ts) over a stand-in document (its one preload link)
// and fetch (a body whose chunks the test writes, split anywhere); the module keeps one batch per
// document load, so each test loads it afresh.

const A = "/api/analytics/kpis?brand=b&range=30";
const B = "/api/analytics/top-domains?brand=b&range=30";
const C = "/api/analytics/cited-pages?brand=b&range=30&page=1&pageSize=20";

type Body = { write: (text: string) => void; end: () => void; fail: () => void };

async function load(opts: { addresses?: string[]; status?: number } = {}) {
  vi.resetModules();
  const href = opts.addresses ? batchPath(opts.addresses) : null;
  vi.stubGlobal("document", {
    querySelector: (selector: string) => (href && selector.includes("preload") ? { getAttribute: (name: string) => (name === "href" ? href : null) } : null),
  });
  let body!: Body;
  const fetched: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      fetched.push(url);
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          body = { write: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close(), fail: () => controller.error(new TypeError("network error")) };
        },
      });
      return new Response(stream, { status: opts.status ?? 200 });
    }),
  );
  const batchModule = await import("./chart-batch");
  return { take: batchModule.takeBatchedChart, body: () => body, fetched };
}

const line = (chart: string, status = 200, body: unknown = { chart }) => `${JSON.stringify({ chart, status, body } satisfies BatchLine)}\n`;
/** Settles the reader's pending reads. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => vi.stubGlobal("performance", { now: () => Date.now(), mark: vi.fn() }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("takeBatchedChart", () => {
  it("hands each chart its line as it arrives, a line split across chunks included, reading the batch once", async () => {
    const { take, body, fetched } = await load({ addresses: [A, B, C] });
    const a = take(A);
    const b = take(B);
    await flush();
    let bAnswered = false;
    void b.then(() => (bAnswered = true));
    const text = line(B, 200, { n: 2 });
    body().write(text.slice(0, 10));
    await flush();
    expect(bAnswered).toBe(false);
    body().write(text.slice(10) + line(A, 404, { error: { code: "not_found", message: "no" } }));
    expect(await b).toEqual({ chart: B, status: 200, body: { n: 2 } });
    expect(await a).toEqual({ chart: A, status: 404, body: { error: { code: "not_found", message: "no" } } });
    body().write(line(C));
    body().end();
    expect(await take(C)).toMatchObject({ chart: C, status: 200 });
    expect(fetched).toEqual([batchPath([A, B, C])]);
    expect(performance.mark).toHaveBeenCalledTimes(3);
  });

  it("answers null for a chart the batch does not hold, and for one taken already: they ask with their own GET", async () => {
    const { take, body } = await load({ addresses: [A] });
    expect(await take(B)).toBeNull();
    const first = take(A);
    expect(await take(A)).toBeNull();
    body().write(line(A));
    body().end();
    expect(await first).toMatchObject({ chart: A });
  });

  it("answers null for every chart when the page has no batch", async () => {
    const { take, fetched } = await load();
    expect(await take(A)).toBeNull();
    expect(fetched).toEqual([]);
  });

  it("answers null for every chart still waiting when the batch is refused, breaks off or ends inside a line", async () => {
    const refused = await load({ addresses: [A, B], status: 401 });
    expect(await Promise.all([refused.take(A), refused.take(B)])).toEqual([null, null]);

    // Broken off by the network, or ended inside a line: A's whole line counts, B asks itself.
    for (const stop of ["fail", "end"] as const) {
      const batch = await load({ addresses: [A, B] });
      const [a, b] = [batch.take(A), batch.take(B)];
      await flush();
      batch.body().write(line(A) + line(B).slice(0, 5));
      batch.body()[stop]();
      expect(await a, stop).toMatchObject({ chart: A, status: 200 });
      expect(await b, stop).toBeNull();
    }
  });

  it("does not hand out an answer that waited untaken for more than ten seconds", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { take, body } = await load({ addresses: [A, B] });
    const a = take(A);
    await flush();
    body().write(line(A) + line(B));
    body().end();
    await a;
    vi.advanceTimersByTime(10_001);
    expect(await take(B)).toBeNull();
  });
});
