// Visits sent by AI assistants (issue 21 item 2, docs/traffic.md): the collect endpoints the /t.js
// script calls (POST /api/t, GET /t.gif) and GET /api/v1/traffic/visits, through their route
// handlers with real Requests against real PostgreSQL: recorded, not recorded (no assistant,
// another domain, a bad key, a rotated key), the same answer whatever happened, and the limit
// per site key under concurrent requests.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callRoute, createTenant, type Tenant } from "../support/api-fixtures";
import { OPTIONS, POST as collectRoute } from "@/app/api/t/route";
import { GET as visitsRoute } from "@/app/api/v1/traffic/visits/route";
import { GET as pixelRoute } from "@/app/t.gif/route";
import { reloadEnv } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { rotateSiteKey } from "@/lib/traffic/visits";

const LIMIT = 20;
let A: Tenant;
let B: Tenant;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  process.env.BEACON_VISITS_PER_MINUTE = String(LIMIT);
  reloadEnv();
  A = await createTenant("Visits");
  B = await createTenant("Visits other");
  await db().brand.update({ where: { id: A.brandId }, data: { domains: ["acme-visits.com"] } });
  await db().brand.update({ where: { id: B.brandId }, data: { domains: ["other-visits.com"] } });
  keyA = (await rotateSiteKey(A.workspaceId, null)).key;
  keyB = (await rotateSiteKey(B.workspaceId, null)).key;
});

afterAll(() => {
  delete process.env.BEACON_VISITS_PER_MINUTE;
  reloadEnv();
});

/** What the script sends with sendBeacon: a text/plain body. */
async function beacon(body: unknown) {
  const response = await collectRoute(
    new Request("http://beacon.test/api/t", { method: "POST", headers: { "content-type": "text/plain;charset=UTF-8", origin: "https://www.acme-visits.com" }, body: typeof body === "string" ? body : JSON.stringify(body) }),
  );
  return { status: response.status, cors: response.headers.get("access-control-allow-origin"), body: await response.text() };
}

async function pixel(fields: Record<string, string>) {
  const response = await pixelRoute(new Request(`http://beacon.test/t.gif?${new URLSearchParams(fields)}`));
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

const visitsOf = (workspaceId: string) =>
  db().trafficVisitDaily.findMany({ where: { workspaceId }, orderBy: [{ path: "asc" }, { assistant: "asc" }], select: { domain: true, path: true, assistant: true, visits: true } });

describe("POST /api/t and GET /t.gif", () => {
  it("records a visit an assistant sent to an own page: its domain and path without query, the assistant, per day", async () => {
    const sent = await beacon({ k: keyA, u: "https://www.acme-visits.com/pricing?plan=pro#faq", r: "https://chatgpt.com/" });
    expect(sent).toEqual({ status: 204, cors: "*", body: "" });
    await beacon({ k: keyA, u: "https://acme-visits.com/pricing", r: "https://chatgpt.com/c/abc" });
    await beacon({ k: keyA, u: "https://blog.acme-visits.com/post?utm_source=perplexity.ai", r: "" });
    const gif = await pixel({ k: keyA, u: "https://acme-visits.com/", r: "https://claude.ai/" });
    expect(gif.status).toBe(200);
    expect(gif.type).toBe("image/gif");
    expect(gif.bytes.subarray(0, 6).toString("latin1")).toBe("GIF89a");
    expect(await visitsOf(A.workspaceId)).toEqual([
      { domain: "acme-visits.com", path: "/", assistant: "Claude", visits: 1 },
      { domain: "blog.acme-visits.com", path: "/post", assistant: "Perplexity", visits: 1 },
      { domain: "acme-visits.com", path: "/pricing", assistant: "ChatGPT", visits: 2 },
    ].sort((x, y) => x.path.localeCompare(y.path)));
    const [row] = await db().$queryRaw<{ today: boolean }[]>`SELECT bool_and(day = (now() AT TIME ZONE 'UTC')::date) AS today FROM traffic_visits_daily WHERE "workspaceId" = ${A.workspaceId}::uuid`;
    expect(row!.today).toBe(true);
  });

  it("answers the same and records nothing for a visit no assistant sent, another domain, or a key that does not exist", async () => {
    const before = await visitsOf(B.workspaceId);
    const recorded = await beacon({ k: keyB, u: "https://other-visits.com/x", r: "https://gemini.google.com/" });
    const answers = [
      await beacon({ k: keyB, u: "https://other-visits.com/x", r: "https://www.google.com/" }),
      await beacon({ k: keyB, u: "https://other-visits.com/x", r: "" }),
      await beacon({ k: keyB, u: "https://acme-visits.com/x", r: "https://chatgpt.com/" }),
      await beacon({ k: keyB, u: "https://unrelated.example/x", r: "https://chatgpt.com/" }),
      await beacon({ k: "bs_AAAAAAAAAAAAAAAAAAAAAAAA", u: "https://other-visits.com/x", r: "https://chatgpt.com/" }),
      await beacon({ k: "nonsense", u: "https://other-visits.com/x", r: "https://chatgpt.com/" }),
    ];
    for (const answer of answers) expect(answer).toEqual(recorded);
    expect(await visitsOf(B.workspaceId)).toEqual([...before, { domain: "other-visits.com", path: "/x", assistant: "Gemini", visits: 1 }]);
    // A's key for a B page counts for neither; A's rows are unchanged by all of the above.
    expect((await visitsOf(A.workspaceId)).some((v) => v.domain === "other-visits.com")).toBe(false);
  });

  it("refuses a body that is not the script's shape with 400 (over 16 KB: 413), still with CORS", async () => {
    for (const body of ["not json", JSON.stringify({ k: keyA }), JSON.stringify({ k: keyA, u: "x".repeat(5000), r: "" })]) {
      const answer = await beacon(body);
      expect(answer.status).toBe(400);
      expect(answer.cors).toBe("*");
    }
    expect((await beacon(JSON.stringify({ k: keyA, u: "https://acme-visits.com/", r: "x".repeat(20_000) }))).status).toBe(413);
  });

  it("answers a CORS preflight for any origin", () => {
    const response = OPTIONS();
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("counts at most the limit per site key and minute, also for requests sent at once", async () => {
    const C = await createTenant("Visits limit");
    await db().brand.update({ where: { id: C.brandId }, data: { domains: ["limit-visits.com"] } });
    const { key } = await rotateSiteKey(C.workspaceId, null);
    const answers = await Promise.all(Array.from({ length: LIMIT + 10 }, () => beacon({ k: key, u: "https://limit-visits.com/", r: "https://chatgpt.com/" })));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([204]));
    expect(await visitsOf(C.workspaceId)).toEqual([{ domain: "limit-visits.com", path: "/", assistant: "ChatGPT", visits: LIMIT }]);
    // Those over the limit never reached the key's row: a flood cannot queue on it.
    expect((await db().trafficSiteKey.findUniqueOrThrow({ where: { workspaceId: C.workspaceId } })).windowCount).toBe(LIMIT);
    // Another site's key has its own limit.
    expect((await beacon({ k: keyB, u: "https://other-visits.com/limit", r: "https://chatgpt.com/" })).status).toBe(204);
    expect((await visitsOf(B.workspaceId)).find((v) => v.path === "/limit")?.visits).toBe(1);
  });

  it("starts a new key's window by the database's clock, also when the web server's runs two hours ahead", async () => {
    const F = await createTenant("Visits fast clock");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      await rotateSiteKey(F.workspaceId, null);
    } finally {
      vi.useRealTimers();
    }
    // recordVisit starts a new window once the row's is a minute old by the database's now(): a
    // window starting two hours ahead would not end for two hours, and past the limit every visit
    // in between was dropped.
    const [row] = await db().$queryRaw<{ windowAhead: number; createdAhead: number }[]>`
      SELECT extract(epoch FROM "windowStart" - (now() AT TIME ZONE 'UTC'))::float8 AS "windowAhead",
             extract(epoch FROM "createdAt" - (now() AT TIME ZONE 'UTC'))::float8 AS "createdAhead"
      FROM traffic_site_keys WHERE "workspaceId" = ${F.workspaceId}::uuid`;
    expect(row!.windowAhead).toBeLessThan(5);
    expect(row!.createdAhead).toBeLessThan(5);
  });

  it("stops counting a rotated key at once", async () => {
    const D = await createTenant("Visits rotate");
    await db().brand.update({ where: { id: D.brandId }, data: { domains: ["rotate-visits.com"] } });
    const old = (await rotateSiteKey(D.workspaceId, null)).key;
    const fresh = (await rotateSiteKey(D.workspaceId, old)).key;
    expect(fresh).not.toBe(old);
    await beacon({ k: old, u: "https://rotate-visits.com/", r: "https://chatgpt.com/" });
    await beacon({ k: fresh, u: "https://rotate-visits.com/", r: "https://chatgpt.com/" });
    expect(await visitsOf(D.workspaceId)).toEqual([{ domain: "rotate-visits.com", path: "/", assistant: "ChatGPT", visits: 1 }]);
  });
});

describe("creating and rotating the site key", () => {
  it("changes it once when the same click comes twice, also at once: a site given the first key keeps counting", async () => {
    const E = await createTenant("Visits double click");
    const created = await Promise.all([rotateSiteKey(E.workspaceId, null), rotateSiteKey(E.workspaceId, null)]);
    expect(created.map((c) => c.changed).sort()).toEqual([false, true]);
    expect(created[0]!.key).toBe(created[1]!.key);
    const first = created[0]!.key;

    const rotated = await Promise.all([rotateSiteKey(E.workspaceId, first), rotateSiteKey(E.workspaceId, first)]);
    expect(rotated.map((r) => r.changed).sort()).toEqual([false, true]);
    expect(rotated[0]!.key).toBe(rotated[1]!.key);
    expect(rotated[0]!.key).not.toBe(first);
    expect((await db().trafficSiteKey.findUniqueOrThrow({ where: { workspaceId: E.workspaceId } })).key).toBe(rotated[0]!.key);
  });

  it("refuses to rotate a workspace's key it does not have", async () => {
    const G = await createTenant("Visits no key");
    await expect(rotateSiteKey(G.workspaceId, "bs_AAAAAAAAAAAAAAAAAAAAAAAA")).rejects.toThrow(/no site key/);
    expect(await db().trafficSiteKey.count({ where: { workspaceId: G.workspaceId } })).toBe(0);
  });
});

describe("GET /api/v1/traffic/visits", () => {
  it("answers the workspace's visits per page and per day and assistant, equal to the rows", async () => {
    const E = await createTenant("Visits api");
    await db().brand.update({ where: { id: E.brandId }, data: { domains: ["api-visits.com"] } });
    await db().trafficVisitDaily.createMany({
      data: [
        { workspaceId: E.workspaceId, day: new Date("2026-03-01"), domain: "api-visits.com", path: "/a", assistant: "ChatGPT", visits: 3 },
        { workspaceId: E.workspaceId, day: new Date("2026-03-02"), domain: "api-visits.com", path: "/a", assistant: "Claude", visits: 1 },
        { workspaceId: E.workspaceId, day: new Date("2026-03-02"), domain: "api-visits.com", path: "/b", assistant: "ChatGPT", visits: 5 },
        { workspaceId: E.workspaceId, day: new Date("2026-04-01"), domain: "api-visits.com", path: "/b", assistant: "ChatGPT", visits: 100 },
        // A site the brand no longer lists: not counted, as on the Traffic page.
        { workspaceId: E.workspaceId, day: new Date("2026-03-02"), domain: "dropped-visits.com", path: "/", assistant: "ChatGPT", visits: 50 },
      ],
    });
    const pages = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=2026-03-01&to=2026-03-31", apiKey: E.apiKey });
    expect(pages.status).toBe(200);
    expect(pages.body).toEqual({
      from: "2026-03-01",
      to: "2026-03-31",
      pages: [
        { domain: "api-visits.com", path: "/b", visits: 5, byAssistant: { ChatGPT: 5 } },
        { domain: "api-visits.com", path: "/a", visits: 4, byAssistant: { ChatGPT: 3, Claude: 1 } },
      ],
      page: 1,
      pageSize: 100,
      total: 2,
    });
    // Paged: the second page of one holds the page the first did not (a site's 101st page was out of reach).
    const second = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=2026-03-01&to=2026-03-31&page=2&pageSize=1", apiKey: E.apiKey });
    expect(second.body).toMatchObject({ pages: [{ path: "/a", visits: 4 }], page: 2, pageSize: 1, total: 2 });
    const past = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=2026-03-01&to=2026-03-31&page=3&pageSize=1", apiKey: E.apiKey });
    expect(past.body).toMatchObject({ pages: [], total: 2 });
    expect((await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?pageSize=1001", apiKey: E.apiKey })).body.error.field).toBe("pageSize");
    const days = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?by=day&from=2026-03-01&to=2026-03-31", apiKey: E.apiKey });
    expect(days.body.days).toEqual([
      { day: "2026-03-01", assistant: "ChatGPT", visits: 3 },
      { day: "2026-03-02", assistant: "ChatGPT", visits: 5 },
      { day: "2026-03-02", assistant: "Claude", visits: 1 },
    ]);
    // Another workspace's key sees none of them.
    const other = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=2026-03-01&to=2026-03-31", apiKey: B.apiKey });
    expect(other.body.pages).toEqual([]);
    const bad = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=2026-04-01&to=2026-03-01", apiKey: E.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("from");
    // Year 0, which PostgreSQL refuses (was a 500).
    const yearZero = await callRoute(visitsRoute, { path: "/api/v1/traffic/visits?from=0000-01-01&to=0000-01-02", apiKey: E.apiKey });
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.error.field).toBe("from");
  });
});
