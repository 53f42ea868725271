// The Traffic page's numbers (issue 21 item 4, docs/traffic.md "The Traffic page"): for any
// history of crawler hits and citations (fast-check), the traffic charts read over
// GET /api/v1/analytics/<chart> equal direct counts over the raw rows: traffic_hits for crawls and
// the captures' citations for answers, with the brand's other-brand domains, other workspaces,
// failed captures, retrieved-only and foreign citations and days outside the range left out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/api-fixtures";
import { GET as chartRoute } from "@/app/api/v1/analytics/[chart]/route";
import { domainOf, registrableDomain } from "@/lib/analysis/citations";
import type { ChartName } from "@/lib/analytics/charts";
import { recordRollups } from "@/lib/analytics/rollups";
import type { ChartData } from "@/lib/analytics/wire";
import { db } from "@/lib/db/prisma";
import { storeHits } from "@/lib/traffic/store";
import { addVisits } from "@/lib/traffic/visits";
import { VERIFICATIONS } from "@/lib/traffic/verify";

// Range under test: 2025-05-10 .. 2025-05-19 (to is inclusive in the query string). Days from
// 04-01 reach the 30-day look-back before the range's end (05-20) and the days before it.
const RANGE = "from=2025-05-10&to=2025-05-19";
const FIRST = "2025-05-10";
const END = "2025-05-20";
const RECENT = "2025-04-20";
const DAYS = ["2025-04-01", "2025-04-19", "2025-04-20", "2025-05-09", "2025-05-10", "2025-05-11", "2025-05-14", "2025-05-18", "2025-05-19", "2025-05-20"];
const HOSTS = ["funnel-acme.com", "docs.funnel-acme.com", "second-brand.com"]; // second-brand.com: the workspace's other brand
const PATHS = ["/", "/pricing", "/blog/a,b"];
const CRAWLERS = ["GPTBot", "ClaudeBot", "PerplexityBot", "Claude-User"];

const hit = fc.record({
  day: fc.constantFrom(...DAYS),
  domain: fc.constantFrom(...HOSTS),
  path: fc.constantFrom(...PATHS),
  crawler: fc.constantFrom(...CRAWLERS),
  verification: fc.constantFrom(...VERIFICATIONS),
  status: fc.constantFrom(200, 404, 503),
});
// Visits the script recorded (traffic_visits_daily has no raw rows: each is one day's count; addVisits writes it and its rollups).
const ASSISTANTS = ["ChatGPT", "Perplexity", "Gemini"];
const visit = fc.record({
  day: fc.constantFrom(...DAYS),
  domain: fc.constantFrom(...HOSTS, "other-site.com"),
  path: fc.constantFrom(...PATHS, "/landing"),
  assistant: fc.constantFrom(...ASSISTANTS),
  visits: fc.integer({ min: 1, max: 5 }),
});
// The last site readiness check per domain: its checked pages (some cited with a query), and per
// crawler the pages robots.txt blocks it from. Training crawlers do not count for "blocked but cited".
const READINESS_CRAWLERS = [
  { name: "GPTBot", purpose: "training" },
  { name: "OAI-SearchBot", purpose: "search" },
  { name: "ChatGPT-User", purpose: "user" },
  { name: "Claude-User", purpose: "user" },
] as const;
const readiness = fc.record({
  domain: fc.constantFrom(...HOSTS),
  pages: fc.uniqueArray(fc.record({ path: fc.constantFrom(...PATHS), query: fc.constantFrom("", "?ref=1") }), { selector: (p) => p.path, maxLength: 3 }),
  blocks: fc.array(fc.record({ crawler: fc.constantFrom(...READINESS_CRAWLERS.map((c) => c.name)), path: fc.constantFrom(...PATHS) }), { maxLength: 6 }),
  // robots.txt did not answer (RFC 9309: disallow all): every crawler is stored as blocked.
  unreachable: fc.constantFrom(false, false, true),
});
// Each answer cites a set of pages, each written as one URL (with "www." or a query on some).
const citation = fc.record({
  host: fc.constantFrom(...HOSTS, "www.funnel-acme.com", "rival-brand.com"),
  path: fc.constantFrom(...PATHS),
  query: fc.constantFrom("", "?utm_x=1"),
  retrievedOnly: fc.constantFrom(false, false, true),
});
const answer = fc.record({
  day: fc.constantFrom(...DAYS),
  failed: fc.constantFrom(false, false, false, true),
  // A titled answer gives its citations its day's title (answers of one day share it): a page shows the latest.
  titled: fc.boolean(),
  cites: fc.uniqueArray(citation, { selector: (c) => `${c.host.replace(/^www\./, "")}${c.path}`, minLength: 1, maxLength: 4 }),
});
const history = fc.record({
  hits: fc.array(hit, { minLength: 10, maxLength: 80 }),
  answers: fc.array(answer, { minLength: 4, maxLength: 16 }),
  visits: fc.uniqueArray(visit, { selector: (v) => `${v.day} ${v.domain}${v.path} ${v.assistant}`, maxLength: 30 }),
  readiness: fc.uniqueArray(readiness, { selector: (r) => r.domain, maxLength: 3 }),
});
type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

async function chart<C extends ChartName>(tenant: Tenant, name: C, query: string): Promise<ChartData<C>> {
  const request = new Request(`http://localhost/api/v1/analytics/${name}?${RANGE}&${query}`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
  const response = await chartRoute(request, { params: Promise.resolve({ chart: name }) });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return JSON.parse(body) as ChartData<C>;
}

async function writeHistory(tenant: Tenant, h: Omit<History, "visits" | "readiness"> & Partial<Pick<History, "visits" | "readiness">>) {
  await db().brand.update({ where: { id: tenant.brandId }, data: { domains: ["https://www.funnel-acme.com"] } });
  await db().brand.create({ data: { workspaceId: tenant.workspaceId, name: "Second", domains: ["second-brand.com"] } });
  await storeHits(tenant.workspaceId, h.hits.map((x) => ({ at: new Date(`${x.day}T12:00:00Z`), domain: x.domain, path: x.path, crawler: x.crawler, verification: x.verification, status: x.status })));
  await addVisits(tenant.workspaceId, h.visits ?? []);
  for (const r of h.readiness ?? []) {
    await db().siteReadiness.create({
      data: {
        workspaceId: tenant.workspaceId, domain: r.domain, checkedAt: new Date(), robotsOutcome: r.unreachable ? "unreachable" : "found", robotsStatus: r.unreachable ? 503 : 200, llmsTxt: false, llmsTxtStatus: 404,
        pages: r.pages.map((p) => ({ url: `https://${r.domain}${p.path}${p.query}`, path: `${p.path}${p.query}`, citations: 1 })),
        crawlers: READINESS_CRAWLERS.map((c) => ({
          name: c.name, operator: "x", purpose: c.purpose, root: !r.unreachable,
          pages: r.pages.map((p) => {
            const allowed = !r.unreachable && !r.blocks.some((b) => b.crawler === c.name && b.path === p.path);
            return { allowed, status: allowed ? 200 : "blocked" };
          }),
        })),
      },
    });
    // The verdicts for every page the check judged (all cited ones), not only the pages it fetched.
    const answering = READINESS_CRAWLERS.filter((c) => c.purpose !== "training");
    const blocked = PATHS.map((path) => ({ path, blockedFor: answering.filter((c) => r.unreachable || r.blocks.some((b) => b.crawler === c.name && b.path === path)).map((c) => c.name).sort() }));
    await db().siteReadinessBlockedPage.createMany({ data: blocked.filter((b) => b.blockedFor.length).map((b) => ({ workspaceId: tenant.workspaceId, domain: r.domain, ...b })) });
  }
  const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: tenant.workspaceId } });
  const check = await db().check.create({ data: { workspaceId: tenant.workspaceId, brandId: tenant.brandId, totalCaptures: h.answers.length, status: "completed" } });
  for (const [i, a] of h.answers.entries()) {
    const capture = await db().capture.create({
      data: {
        workspaceId: tenant.workspaceId, checkId: check.id, brandId: tenant.brandId, promptId: tenant.promptIds[0]!, providerConfigId: provider.id,
        connectionId: provider.connectionId, sample: i + 1, status: a.failed ? "failed" : "succeeded", maxAttempts: 3, attemptCount: 1, model: "m",
        searchMode: "auto", answerText: "An answer", finishedAt: new Date(`${a.day}T08:00:00Z`), analyzedAt: new Date(`${a.day}T08:00:00Z`),
      },
    });
    await db().citation.createMany({
      data: a.cites.map((c, position) => {
        const url = `https://${c.host}${c.path}${c.query}`;
        return {
          workspaceId: tenant.workspaceId, captureId: capture.id, url, title: a.titled ? `Page of ${a.day}` : null, domain: registrableDomain(url)!,
          isOwnDomain: c.host.endsWith("funnel-acme.com"), citedInText: !c.retrievedOnly, position: position + 1,
        };
      }),
    });
  }
  await recordRollups(db(), (await db().capture.findMany({ where: { checkId: check.id }, select: { id: true } })).map((c) => c.id));
}

type Expected = { title: string | null; titledDay: string | null; crawls: number; last: string | null; recent: boolean; crawlers: Map<string, number>; answers: number; visits: Map<string, number>; blockedFor: string[]; robotsUnreachable: boolean };

/** The funnel counted directly: crawls from traffic_hits, answers from the captures' citations. */
async function directCounts(tenant: Tenant) {
  const pages = new Map<string, Expected>();
  const page = (domain: string, path: string) => {
    const key = `${domain}${path}`;
    if (!pages.has(key)) pages.set(key, { title: null, titledDay: null, crawls: 0, last: null, recent: false, crawlers: new Map(), answers: 0, visits: new Map(), blockedFor: [], robotsUnreachable: false });
    return pages.get(key)!;
  };
  const hits = await db().$queryRaw<{ day: Date; domain: string; path: string; crawler: string }[]>`
    SELECT day, domain, path, crawler FROM traffic_hits WHERE "workspaceId" = ${tenant.workspaceId}::uuid AND domain IN ('funnel-acme.com', 'docs.funnel-acme.com') AND day < ${END}::date`;
  for (const h of hits) {
    const day = h.day.toISOString().slice(0, 10);
    const p = page(h.domain, h.path);
    if (!p.last || day > p.last) p.last = day;
    if (day >= RECENT) p.recent = true;
    if (day < FIRST) continue;
    p.crawls += 1;
    p.crawlers.set(h.crawler, (p.crawlers.get(h.crawler) ?? 0) + 1);
  }
  const cited = await db().$queryRaw<{ url: string; captureId: string; title: string | null; finishedAt: Date }[]>`
    SELECT ci.url, ci."captureId", ci.title, c."finishedAt" FROM citations ci JOIN captures c ON c.id = ci."captureId"
    WHERE c."workspaceId" = ${tenant.workspaceId}::uuid AND c.status = 'succeeded' AND ci."citedInText" AND ci."isOwnDomain"
      AND c."finishedAt" >= ${FIRST}::timestamp AND c."finishedAt" < ${END}::timestamp`;
  const answersOf = new Map<string, Set<string>>();
  for (const c of cited) {
    const url = new URL(c.url);
    const key = `${url.hostname.replace(/^www\./, "")}${url.pathname}`;
    if (!answersOf.has(key)) answersOf.set(key, new Set());
    answersOf.get(key)!.add(c.captureId);
    const day = c.finishedAt.toISOString().slice(0, 10);
    const slash = key.indexOf("/");
    const p = page(key.slice(0, slash), key.slice(slash));
    if (c.title !== null && (p.titledDay === null || day > p.titledDay)) Object.assign(p, { title: c.title, titledDay: day });
  }
  for (const [key, set] of answersOf) {
    const slash = key.indexOf("/");
    page(key.slice(0, slash), key.slice(slash)).answers = set.size;
  }
  const visits = await db().$queryRaw<{ domain: string; path: string; assistant: string; visits: number }[]>`
    SELECT domain, path, assistant, visits FROM traffic_visits_daily WHERE "workspaceId" = ${tenant.workspaceId}::uuid
      AND domain IN ('funnel-acme.com', 'docs.funnel-acme.com') AND day >= ${FIRST}::date AND day < ${END}::date`;
  for (const v of visits) {
    const p = page(v.domain, v.path);
    p.visits.set(v.assistant, (p.visits.get(v.assistant) ?? 0) + v.visits);
  }
  const checks = await db().siteReadiness.findMany({ where: { workspaceId: tenant.workspaceId }, include: { blockedPages: true } });
  for (const [key, p] of pages) {
    for (const check of checks) {
      const blocked = check.blockedPages.find((b) => `${check.domain}${b.path}` === key);
      if (!blocked) continue;
      p.blockedFor = [...blocked.blockedFor].sort();
      p.robotsUnreachable = check.robotsOutcome === "unreachable";
    }
  }
  const [inScope] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM captures c WHERE c."workspaceId" = ${tenant.workspaceId}::uuid AND c.status = 'succeeded'
      AND c."finishedAt" >= ${FIRST}::timestamp AND c."finishedAt" < ${END}::timestamp`;
  const shown = [...pages].filter(([, p]) => p.crawls > 0 || p.answers > 0 || p.visits.size > 0);
  return { pages: new Map(shown), hits: hits.filter((h) => h.day.toISOString().slice(0, 10) >= FIRST), answersInScope: inScope!.n };
}

describe("the traffic funnel", () => {
  it("equals direct counts over the raw hits and citations", async () => {
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const tenant = await createTenant("Funnel");
        await writeHistory(tenant, h);
        const expected = await directCounts(tenant);

        const funnel = await chart(tenant, "traffic-funnel", "pageSize=100");
        expect(funnel.answersInScope).toBe(expected.answersInScope);
        expect(funnel.total).toBe(expected.pages.size);
        const got = new Map(funnel.items.map((row) => [`${row.domain}${row.path}`, row]));
        expect([...got.keys()].sort()).toEqual([...expected.pages.keys()].sort());
        for (const [key, want] of expected.pages) {
          const row = got.get(key)!;
          expect({ key, crawls: row.crawls, last: row.lastCrawled, answers: row.answers, title: row.title }).toEqual({ key, crawls: want.crawls, last: want.last, answers: want.answers, title: want.title });
          expect(Object.fromEntries(row.crawlers.map((c) => [c.crawler, c.hits]))).toEqual(Object.fromEntries(want.crawlers));
          expect(Object.fromEntries(row.assistants.map((a) => [a.assistant, a.visits]))).toEqual(Object.fromEntries(want.visits));
          expect(row.visits).toBe([...want.visits.values()].reduce((a, b) => a + b, 0));
          expect({ key, blockedFor: row.blockedFor, robotsUnreachable: row.robotsUnreachable }).toEqual({ key, blockedFor: want.blockedFor, robotsUnreachable: want.robotsUnreachable });
          expect(row.share.value).toBe(expected.answersInScope ? want.answers / expected.answersInScope : null);
          if (row.share.value !== null) expect(row.share.low! <= row.share.value && row.share.value <= row.share.high!).toBe(true);
        }

        // In each list's order: most answers, then crawls, then visits, then domain and path (the
        // key's host up to its first slash, then the path); pages never cited by crawls alone.
        const split = (key: string) => [key.slice(0, key.indexOf("/")), key.slice(key.indexOf("/"))] as const;
        const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        const visitsOf = (p: Expected) => [...p.visits.values()].reduce((a, b) => a + b, 0);
        const inOrder = (entries: [string, Expected][], byVisits = true) =>
          entries
            .sort(([ka, a], [kb, b]) => b.answers - a.answers || b.crawls - a.crawls || (byVisits ? visitsOf(b) - visitsOf(a) : 0) || byText(split(ka)[0], split(kb)[0]) || byText(split(ka)[1], split(kb)[1]))
            .map(([k]) => k);
        expect(funnel.items.map((r) => `${r.domain}${r.path}`)).toEqual(inOrder([...expected.pages]));

        const neverCited = await chart(tenant, "traffic-funnel", "pageSize=100&list=crawled-not-cited");
        expect(neverCited.items.map((r) => `${r.domain}${r.path}`)).toEqual(inOrder([...expected.pages].filter(([, p]) => p.crawls > 0 && p.answers === 0), false));
        const notCrawled = await chart(tenant, "traffic-funnel", "pageSize=100&list=cited-not-crawled");
        expect(notCrawled.items.map((r) => `${r.domain}${r.path}`).sort()).toEqual([...expected.pages].filter(([, p]) => p.answers > 0 && !p.recent).map(([k]) => k).sort());

        const blocked = await chart(tenant, "traffic-funnel", "pageSize=100&list=blocked-cited");
        expect(blocked.items.map((r) => `${r.domain}${r.path}`).sort()).toEqual([...expected.pages].filter(([, p]) => p.answers > 0 && p.blockedFor.length > 0).map(([k]) => k).sort());

        const crawls = await chart(tenant, "traffic-crawls", "");
        const perKey = new Map<string, number>();
        for (const x of expected.hits) {
          const key = `${x.day.toISOString().slice(0, 10)} ${x.crawler}`;
          perKey.set(key, (perKey.get(key) ?? 0) + 1);
        }
        const gotPerKey = new Map<string, number>();
        for (const r of crawls.rows) gotPerKey.set(`${r.bucket} ${r.crawler}`, (gotPerKey.get(`${r.bucket} ${r.crawler}`) ?? 0) + r.hits);
        expect(Object.fromEntries(gotPerKey)).toEqual(Object.fromEntries(perKey));
        expect(crawls.crawlers.reduce((s, c) => s + c.verified + c.unverified + c.unchecked, 0)).toBe(expected.hits.length);

        const visitsChart = await chart(tenant, "traffic-visits", "");
        const wantVisits = new Map<string, number>();
        for (const v of h.visits) {
          if (v.day < FIRST || v.day >= END || !v.domain.endsWith("funnel-acme.com")) continue;
          wantVisits.set(`${v.day} ${v.assistant}`, (wantVisits.get(`${v.day} ${v.assistant}`) ?? 0) + v.visits);
        }
        expect(Object.fromEntries(visitsChart.rows.map((r) => [`${r.bucket} ${r.assistant}`, r.visits]))).toEqual(Object.fromEntries(wantVisits));
        expect(visitsChart.assistants.reduce((s, a) => s + a.visits, 0)).toBe([...wantVisits.values()].reduce((a, b) => a + b, 0));

        const top = await chart(tenant, "traffic-pages", "pageSize=100");
        const crawledPages = [...expected.pages].filter(([, p]) => p.crawls > 0);
        expect(top.total).toBe(crawledPages.length);
        expect(Object.fromEntries(top.items.map((p) => [`${p.domain}${p.path}`, p.hits]))).toEqual(Object.fromEntries(crawledPages.map(([k, p]) => [k, p.crawls])));
        // No hit is at or after the range's end, so a page's last crawl in range is its last crawl.
        expect(Object.fromEntries(top.items.map((p) => [`${p.domain}${p.path}`, [p.crawlers, p.lastCrawled]]))).toEqual(Object.fromEntries(crawledPages.map(([k, p]) => [k, [p.crawlers.size, p.last]])));
      }),
      { numRuns: 15, endOnFailure: true },
    );
  }, 180_000);

  it("counts a page's crawls and visits for any range, whatever its months and weeks (whole, added, subtracted)", async () => {
    // Hits over 15 weeks (Mon 2025-04-28 .. Sun 2025-08-10, three month turns); per history four
    // ranges starting on any day: 1 to 105 days, and 30, 60 and 90 days (months read whole).
    const day0 = Date.UTC(2025, 3, 28);
    const dayOf = (i: number) => new Date(day0 + i * 86_400_000).toISOString().slice(0, 10);
    const crawl = fc.record({ day: fc.integer({ min: 0, max: 104 }), path: fc.constantFrom(...PATHS), crawler: fc.constantFrom(...CRAWLERS), status: fc.constantFrom(200, 404) });
    const start = fc.integer({ min: 0, max: 104 });
    const visited = fc.record({ day: fc.integer({ min: 0, max: 104 }), path: fc.constantFrom(...PATHS), assistant: fc.constantFrom(...ASSISTANTS), visits: fc.integer({ min: 1, max: 3 }) });
    const ranges = fc.tuple(fc.tuple(start, fc.integer({ min: 1, max: 105 })), fc.tuple(start, fc.constant(30)), fc.tuple(start, fc.constant(60)), fc.tuple(start, fc.constant(90)));
    await fc.assert(
      fc.asyncProperty(fc.array(crawl, { minLength: 1, maxLength: 80 }), fc.array(visited, { maxLength: 60 }), ranges, async (hits, visits, tried) => {
        const tenant = await createTenant("Funnel ranges");
        await db().brand.update({ where: { id: tenant.brandId }, data: { domains: ["funnel-acme.com"] } });
        await storeHits(tenant.workspaceId, hits.map((h) => ({ at: new Date(`${dayOf(h.day)}T12:00:00Z`), domain: "funnel-acme.com", path: h.path, crawler: h.crawler, verification: "unchecked", status: h.status })));
        await addVisits(tenant.workspaceId, visits.map((v) => ({ ...v, day: dayOf(v.day), domain: "funnel-acme.com" })));
        for (const [from, length] of tried) {
          const to = Math.min(104, from + length - 1);
          const get = async <C extends ChartName>(name: C) => {
            const request = new Request(`http://localhost/api/v1/analytics/${name}?from=${dayOf(from)}&to=${dayOf(to)}&pageSize=100`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
            const response = await chartRoute(request, { params: Promise.resolve({ chart: name }) });
            const body = await response.text();
            expect(response.status, body).toBe(200);
            return JSON.parse(body) as ChartData<C>;
          };
          const want = new Map<string, { hits: number; errors: number; crawlers: Set<string>; last: string }>();
          for (const h of hits.filter((x) => x.day >= from && x.day <= to)) {
            const p = want.get(h.path) ?? { hits: 0, errors: 0, crawlers: new Set<string>(), last: "" };
            p.hits += 1;
            if (h.status >= 400) p.errors += 1;
            p.crawlers.add(h.crawler);
            if (dayOf(h.day) > p.last) p.last = dayOf(h.day);
            want.set(h.path, p);
          }
          const expected = Object.fromEntries([...want].map(([path, p]) => [path, [p.hits, p.errors, p.crawlers.size, p.last]]));
          const top = await get("traffic-pages");
          expect({ from, to, pages: Object.fromEntries(top.items.map((p) => [p.path, [p.hits, p.errors, p.crawlers, p.lastCrawled]])) }).toEqual({ from, to, pages: expected });
          expect(top.total).toBe(want.size);
          const funnel = await get("traffic-funnel");
          expect(Object.fromEntries(funnel.items.filter((p) => p.crawls > 0).map((p) => [p.path, p.crawls]))).toEqual(Object.fromEntries([...want].map(([path, p]) => [path, p.hits])));
          // By crawler too: whole months from the per-page monthly rollup, edge days from traffic_daily.
          const byCrawler = new Map<string, Record<string, number>>();
          for (const h of hits.filter((x) => x.day >= from && x.day <= to)) {
            const c = byCrawler.get(h.path) ?? {};
            c[h.crawler] = (c[h.crawler] ?? 0) + 1;
            byCrawler.set(h.path, c);
          }
          expect({ from, to, crawlers: Object.fromEntries(funnel.items.filter((p) => p.crawls > 0).map((p) => [p.path, Object.fromEntries(p.crawlers.map((c) => [c.crawler, c.hits]))])) }).toEqual({ from, to, crawlers: Object.fromEntries(byCrawler) });
          const wantVisits = new Map<string, number>();
          for (const v of visits.filter((x) => x.day >= from && x.day <= to)) wantVisits.set(v.path, (wantVisits.get(v.path) ?? 0) + v.visits);
          expect({ from, to, visits: Object.fromEntries(funnel.items.filter((p) => p.visits > 0).map((p) => [p.path, p.visits])) }).toEqual({ from, to, visits: Object.fromEntries(wantVisits) });
          expect(funnel.total).toBe(new Set([...want.keys(), ...wantVisits.keys()]).size);
        }
      }),
      { numRuns: 25 },
    );
  }, 180_000);

  it("lists a cited page as not crawled only after 30 days without a crawl, by hand", async () => {
    const tenant = await createTenant("Funnel lists");
    const crawl = (day: string, path: string) => ({ day, domain: "funnel-acme.com", path, crawler: "ClaudeBot", verification: "unchecked" as const, status: 200 as const });
    const cite = (path: string, host = "www.funnel-acme.com") => ({ host, path, query: "" as const, retrievedOnly: false });
    // /pricing last crawled on 04-20, the first of the 30 days before 05-20; / on 04-19, the day before.
    await writeHistory(tenant, {
      hits: [crawl("2025-04-20", "/pricing"), crawl("2025-04-19", "/"), crawl("2025-05-11", "/blog/a,b"), crawl("2025-05-12", "/blog/a,b")],
      answers: [
        { day: "2025-05-11", failed: false, titled: false, cites: [cite("/pricing"), cite("/")] },
        { day: "2025-05-12", failed: false, titled: false, cites: [cite("/", "funnel-acme.com")] },
        { day: "2025-05-12", failed: false, titled: false, cites: [] },
        { day: "2025-05-13", failed: false, titled: false, cites: [] },
      ],
    });
    const all = await chart(tenant, "traffic-funnel", "");
    expect(all.items.map((r) => [r.path, r.crawls, r.lastCrawled, r.answers, r.share.value])).toEqual([
      ["/", 0, "2025-04-19", 2, 0.5],
      ["/pricing", 0, "2025-04-20", 1, 0.25],
      ["/blog/a,b", 2, "2025-05-12", 0, 0],
    ]);
    expect((await chart(tenant, "traffic-funnel", "list=cited-not-crawled")).items.map((r) => r.path)).toEqual(["/"]);
    expect((await chart(tenant, "traffic-funnel", "list=crawled-not-cited")).items.map((r) => r.path)).toEqual(["/blog/a,b"]);
  });

  it("shows a page's title from its latest titled answer, across the page's URLs and days, by hand", async () => {
    const tenant = await createTenant("Funnel titles");
    const cite = (host: string) => ({ host, path: "/pricing", query: "" as const, retrievedOnly: false });
    // One page, two URLs: funnel-acme.com titled on 05-10 and 05-14, www. on 05-11; untitled on 05-18.
    await writeHistory(tenant, {
      hits: [],
      answers: [
        { day: "2025-05-10", failed: false, titled: true, cites: [cite("funnel-acme.com")] },
        { day: "2025-05-11", failed: false, titled: true, cites: [cite("www.funnel-acme.com")] },
        { day: "2025-05-14", failed: false, titled: true, cites: [cite("funnel-acme.com")] },
        { day: "2025-05-18", failed: false, titled: false, cites: [cite("www.funnel-acme.com")] },
      ],
    });
    const all = await chart(tenant, "traffic-funnel", "");
    expect(all.items.map((r) => [r.path, r.answers, r.title])).toEqual([["/pricing", 4, "Page of 2025-05-14"]]);
  });

  it("leaves Gemini's redirect links out of the pages: they name the site (its title), not a page", async () => {
    const tenant = await createTenant("Funnel redirects");
    await writeHistory(tenant, { hits: [], answers: [{ day: "2025-05-12", failed: false, titled: false, cites: [{ host: "funnel-acme.com", path: "/pricing", query: "", retrievedOnly: false }] }] });
    // A Gemini answer citing the brand's site through its redirect link: counted under the title's domain, as the brand's own.
    const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: tenant.workspaceId } });
    const check = await db().check.create({ data: { workspaceId: tenant.workspaceId, brandId: tenant.brandId, totalCaptures: 1, status: "completed" } });
    const gemini = await db().capture.create({
      data: {
        workspaceId: tenant.workspaceId, checkId: check.id, brandId: tenant.brandId, promptId: tenant.promptIds[0]!, providerConfigId: provider.id,
        connectionId: provider.connectionId, sample: 1, status: "succeeded", maxAttempts: 3, attemptCount: 1, model: "gemini", searchMode: "auto",
        answerText: "An answer", finishedAt: new Date("2025-05-13T08:00:00Z"), analyzedAt: new Date("2025-05-13T08:00:00Z"),
      },
    });
    const redirect = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFx3k";
    expect(domainOf(redirect, "funnel-acme.com")).toBe("funnel-acme.com");
    await db().citation.create({
      data: { workspaceId: tenant.workspaceId, captureId: gemini.id, url: redirect, title: "funnel-acme.com", domain: "funnel-acme.com", isOwnDomain: true, citedInText: true, position: 1 },
    });
    await recordRollups(db(), [gemini.id]);

    const funnel = await chart(tenant, "traffic-funnel", "");
    expect(funnel.items.map((r) => `${r.domain}${r.path}`)).toEqual(["funnel-acme.com/pricing"]);
    const notCrawled = await chart(tenant, "traffic-funnel", "list=cited-not-crawled");
    expect(notCrawled.items.map((r) => `${r.domain}${r.path}`)).toEqual(["funnel-acme.com/pricing"]);
    expect((await chart(tenant, "own-pages", "")).items.map((p) => p.url)).toEqual(["https://funnel-acme.com/pricing"]);
    expect((await chart(tenant, "cited-pages", "")).items.map((p) => p.url)).toEqual(["https://funnel-acme.com/pricing"]);
  });

  it("pages the funnel: the pages of a list add up to its rows, none twice", async () => {
    const tenant = await createTenant("Funnel pages");
    const hits = Array.from({ length: 7 }, (_, i) => ({ day: "2025-05-12", domain: "funnel-acme.com", path: `/p${i}`, crawler: "GPTBot", verification: "verified" as const, status: 200 as const }));
    await writeHistory(tenant, { hits, answers: [] });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const data = await chart(tenant, "traffic-funnel", `pageSize=3&page=${page}`);
      expect(data.total).toBe(7);
      seen.push(...data.items.map((r) => r.path));
    }
    expect(seen.sort()).toEqual(hits.map((x) => x.path).sort());
    // A page past the last (a link kept while the list shrank) is empty and still says how many there are.
    for (const name of ["traffic-funnel", "traffic-pages"] as const) {
      const past = await chart(tenant, name, "pageSize=3&page=4");
      expect(past.items, name).toEqual([]);
      expect(past.total, name).toBe(7);
    }
  });
});
