// Site readiness (issue 21 item 3, docs/traffic.md) against local sites over real HTTP: robots.txt
// read per crawler token and purpose (a BOM, CRLF, a group naming two agents, a robots-only
// token), llms.txt, the most-cited own pages fetched with each crawler's user agent (a firewall
// answering 403 to one, a redirect followed for another, a redirect to the cloud metadata
// address refused by the SSRF guard, a page that never answers), a 5xx robots.txt disallowing
// everything and a missing one allowing everything, the guard refusing loopback unless the
// operator exempts it; then the action (admins only, one waiting job) and the REST read.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callRoute } from "../support/api-fixtures";
import { gateAt } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { startWorker } from "../support/worker-process";
import { join, ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { GET as readinessRoute } from "@/app/api/v1/traffic/readiness/route";
import { checkSiteReadinessAction, siteReadinessAction } from "@/lib/actions/site-readiness";
import { registrableDomain } from "@/lib/analysis/citations";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { reloadEnv } from "@/lib/config/env";
import { onPausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { CRAWLERS } from "@/lib/traffic/crawlers";
import { readinessByDomain, type DomainReadiness } from "@/lib/traffic/readiness";
import { checkSiteReadiness } from "@/lib/traffic/readiness-check";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

type Seen = { path: string; ua: string };

/** A site: `answer` gets each request; every request is recorded. */
function site(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "/", ua: req.headers["user-agent"] ?? "" });
    answer(req, res);
  });
  return { server, seen, held, base: "" };
}

// Past the first 500 KiB (what is read, RFC 9309 2.5), a group for YouBot that is never seen.
const ROBOTS =
  "\uFEFFUser-agent: *\r\nDisallow: /private\r\n\r\nUser-agent: GPTBot\r\nUser-agent: CCBot\r\nDisallow: /\r\n\r\nUser-agent: Google-Extended\r\nDisallow: /docs\r\n" +
  `# ${"padding ".repeat(80_000)}\r\nUser-agent: YouBot\r\nDisallow: /\r\n`;

// acme: the realistic site. down: robots.txt answers 503. bare: no robots.txt, and a catch-all
// that answers every path (llms.txt too) with its HTML page.
const acme = site((req, res) => {
  const ua = req.headers["user-agent"] ?? "";
  const path = req.url ?? "/";
  if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end(ROBOTS);
  if (path === "/llms.txt") return res.writeHead(200, { "content-type": "text/markdown" }).end("# Acme\n\n> Tools for builders.\n");
  if (path === "/pricing") {
    if (ua.includes("ClaudeBot")) return res.writeHead(403).end("blocked by the firewall");
    if (ua.includes("meta-externalagent")) return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    return res.writeHead(200, { "content-type": "text/html" }).end("<h1>Pricing</h1>");
  }
  if (path === "/docs/start") {
    if (ua.includes("PerplexityBot")) return res.writeHead(301, { location: "/docs/start/" }).end();
    return res.writeHead(200).end("docs");
  }
  if (path === "/docs/start/") return res.writeHead(200).end("docs, moved");
  if (path === "/slow" && ua.includes("Bytespider")) return void acme.held.push(res);
  if (path === "/slow") return res.writeHead(200).end("slow for some");
  if (path.startsWith("/private/")) return res.writeHead(200).end("private");
  res.writeHead(404).end();
});
const down = site((req, res) => res.writeHead(req.url === "/robots.txt" ? 503 : 200).end("x"));
const bare = site((req, res) => {
  if (req.url === "/robots.txt") return res.writeHead(404).end("not found");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html>app</html>");
});

const origins = new Map<string, string>();
const originOf = (domain: string) => origins.get(domain) ?? `http://${domain}.invalid`;

const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  reloadEnv();
};

let owner: Person;
let member: Person;
let brandId: string;

async function cite(workspaceId: string, url: string, answers: number) {
  const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId } });
  const prompt = await db().prompt.create({ data: { workspaceId, text: `About ${url}?`, tags: [] } });
  const domain = registrableDomain(url)!;
  await db().$executeRaw`
    INSERT INTO rollup_own_pages ("workspaceId", "brandId", day, "providerConfigId", "promptId", url, domain, citations, answers)
    VALUES (${workspaceId}::uuid, ${brandId}::uuid, current_date - 3, ${provider.id}::uuid, ${prompt.id}::uuid, ${url}, ${domain}, ${answers}, ${answers})`;
}

beforeAll(async () => {
  for (const [domain, s] of [["acme-ready.test", acme], ["down-ready.test", down], ["bare-ready.test", bare]] as const) {
    await new Promise<void>((resolve) => s.server.listen(0, "127.0.0.1", resolve));
    s.base = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    origins.set(domain, s.base);
  }
  setEnv({ BEACON_READINESS_TIMEOUT_MS: "3000", BEACON_READINESS_ALLOW_ADDRESSES: undefined });
  owner = await signUp({ name: "Rea Owner", workspaceName: "Readiness" });
  member = await join(owner, "member");
  brandId = (await db().brand.create({ data: { workspaceId: owner.workspaceId, name: "Acme", domains: ["acme-ready.test", "www.down-ready.test", "bare-ready.test"] } })).id;
  // Own pages on acme (the five most cited are checked; www. and http:// are the same site), one on another host.
  for (const [url, answers] of [
    ["https://acme-ready.test/pricing", 50],
    ["https://www.acme-ready.test/docs/start", 40],
    ["https://acme-ready.test/private/report", 30],
    ["https://acme-ready.test/slow", 20],
    ["https://acme-ready.test/blog/one", 10],
    ["https://acme-ready.test/blog/least", 1],
    // Past the five fetched: only robots.txt's rules judge it.
    ["https://acme-ready.test/private/old?page=2", 2],
    ["http://www.acme-ready.test/pricing", 15],
    ["https://docs.elsewhere.test/acme", 45],
    ["https://bare-ready.test/", 5],
  ] as const) {
    await cite(owner.workspaceId, url, answers);
  }
}, 60_000);

afterAll(async () => {
  for (const s of [acme, down, bare]) {
    for (const res of s.held) res.destroy();
    s.server.closeAllConnections();
    await new Promise((resolve) => s.server.close(resolve));
  }
});

const domainOf = (list: DomainReadiness[], domain: string) => list.find((d) => d.domain === domain)!;
const crawlerOf = (d: DomainReadiness, name: string) => d.purposes.flatMap((p) => p.crawlers).find((c) => c.name === name)!;
const statusOf = (d: DomainReadiness, name: string, path: string) => crawlerOf(d, name).pages.find((p) => new URL(p.url).pathname === path)!;

describe("the SSRF guard", () => {
  it("refuses a site on a non-public address: robots.txt is unreachable and nothing is fetched", async () => {
    await checkSiteReadiness(owner.workspaceId, { originOf });
    expect(acme.seen).toEqual([]);
    const { domains } = await readinessByDomain(owner.workspaceId);
    const a = domainOf(domains, "acme-ready.test");
    expect(a.robots).toEqual({ outcome: "unreachable", status: null });
    expect(a.llmsTxt).toEqual({ present: false, status: null });
    expect(a.purposes.every((p) => p.allowed === 0)).toBe(true);
  });
});

describe("a check of local sites (loopback exempted by the operator)", () => {
  let domains: DomainReadiness[];
  beforeAll(async () => {
    setEnv({ BEACON_READINESS_ALLOW_ADDRESSES: "127.0.0.0/8" });
    expect((await checkSiteReadiness(owner.workspaceId, { originOf })).sort()).toEqual(["acme-ready.test", "bare-ready.test", "down-ready.test"]);
    domains = (await readinessByDomain(owner.workspaceId)).domains;
  }, 60_000);

  it("checks the five most-cited pages of the domain, www. included, other hosts not", () => {
    const a = domainOf(domains, "acme-ready.test");
    expect(a.pages).toEqual([
      { url: "https://acme-ready.test/pricing", citations: 50 },
      { url: "https://www.acme-ready.test/docs/start", citations: 40 },
      { url: "https://acme-ready.test/private/report", citations: 30 },
      { url: "https://acme-ready.test/slow", citations: 20 },
      { url: "https://acme-ready.test/blog/one", citations: 10 },
    ]);
    expect(a.checkedAt).toBeInstanceOf(Date);
  });

  it("keeps, for every cited page and not only the five fetched, the search and user crawlers robots.txt keeps out", async () => {
    const rows = await db().siteReadinessBlockedPage.findMany({ where: { workspaceId: owner.workspaceId, domain: "acme-ready.test" }, orderBy: { path: "asc" } });
    // Every search and user crawler reads the * group (none has a group of its own), which disallows /private.
    const answering = CRAWLERS.filter((c) => c.purpose !== "training").map((c) => c.name).sort();
    expect(rows.map((r) => ({ path: r.path, blockedFor: r.blockedFor }))).toEqual([
      { path: "/private/old", blockedFor: answering },
      { path: "/private/report", blockedFor: answering },
    ]);
    // And the funnel's "Blocked by robots.txt but cited" reads them (lib/analytics/traffic.ts).
    expect(acme.seen.some((s) => s.path.startsWith("/private"))).toBe(false);
  });

  it("reads robots.txt per crawler token (BOM, CRLF, a group of two, a robots-only token) and groups them by purpose", () => {
    const a = domainOf(domains, "acme-ready.test");
    expect(a.robots).toEqual({ outcome: "found", status: 200 });
    expect(a.purposes.map((p) => p.purpose)).toEqual(["training", "search", "user"]);
    for (const p of a.purposes) {
      expect(p.crawlers.map((c) => c.name).sort()).toEqual(CRAWLERS.filter((c) => c.purpose === p.purpose).map((c) => c.name).sort());
    }
    const training = a.purposes.find((p) => p.purpose === "training")!;
    expect(training.blocked).toBe(2); // GPTBot and CCBot
    expect(training.allowed).toBe(training.crawlers.length - 2);
    expect(crawlerOf(a, "GPTBot").root).toBe("blocked");
    expect(crawlerOf(a, "GPTBot").pages.every((p) => p.robots === "blocked" && p.status === "blocked")).toBe(true);
    expect(crawlerOf(a, "CCBot").root).toBe("blocked");
    expect(crawlerOf(a, "OAI-SearchBot").root).toBe("allowed");
    expect(crawlerOf(a, "YouBot").root).toBe("allowed");
    expect(statusOf(a, "OAI-SearchBot", "/private/report")).toMatchObject({ robots: "blocked", status: "blocked" });
    // Google-Extended has its own group (so not *'s /private rule) and no user agent to fetch with.
    expect(statusOf(a, "Google-Extended", "/docs/start")).toEqual({ url: "https://www.acme-ready.test/docs/start", robots: "blocked", status: null });
    expect(statusOf(a, "Google-Extended", "/private/report")).toMatchObject({ robots: "allowed", status: null });
  });

  it("records what each crawler's user agent got: 200, a firewall's 403, a followed redirect, a refused redirect, a timeout", () => {
    const a = domainOf(domains, "acme-ready.test");
    expect(statusOf(a, "OAI-SearchBot", "/pricing").status).toBe(200);
    expect(statusOf(a, "ClaudeBot", "/pricing").status).toBe(403);
    expect(statusOf(a, "PerplexityBot", "/docs/start").status).toBe(200);
    expect(acme.seen.filter((s) => s.ua.includes("PerplexityBot")).map((s) => s.path)).toEqual(expect.arrayContaining(["/docs/start", "/docs/start/"]));
    expect(statusOf(a, "meta-externalagent", "/pricing").status).toBe("refused");
    expect(statusOf(a, "Bytespider", "/slow").status).toBe("timeout");
    expect(statusOf(a, "Bytespider", "/blog/one").status).toBe(404);
  });

  it("sends no request a robots.txt rule forbids, and one per allowed crawler and page", () => {
    const pages = acme.seen.filter((s) => s.path !== "/robots.txt" && s.path !== "/llms.txt" && s.path !== "/docs/start/");
    expect(pages.filter((s) => /GPTBot|CCBot/.test(s.ua))).toEqual([]);
    expect(pages.filter((s) => s.path.startsWith("/private"))).toEqual([]);
    const fetchers = CRAWLERS.filter((c) => c.uaToken && !["GPTBot", "CCBot"].includes(c.name));
    for (const crawler of fetchers) {
      // A token that is part of another (Googlebot in ...) would be counted twice: match the exact token.
      const own = pages.filter((s) => s.ua.includes(`; ${crawler.name}/1.0;`));
      expect(own.map((s) => s.path).sort(), crawler.name).toEqual(["/blog/one", "/docs/start", "/pricing", "/slow"]);
    }
  });

  it("finds llms.txt served as text, and not a catch-all's HTML page or an untyped answer", () => {
    expect(domainOf(domains, "acme-ready.test").llmsTxt).toEqual({ present: true, status: 200 });
    expect(domainOf(domains, "bare-ready.test").llmsTxt).toEqual({ present: false, status: 200 });
    expect(domainOf(domains, "down-ready.test").llmsTxt).toEqual({ present: false, status: 200 });
  });

  it("reads a 5xx robots.txt as disallow all and a missing one as allow all (RFC 9309)", () => {
    const d = domainOf(domains, "down-ready.test");
    expect(d.robots).toEqual({ outcome: "unreachable", status: 503 });
    expect(d.purposes.every((p) => p.allowed === 0 && p.blocked === p.crawlers.length)).toBe(true);
    expect(down.seen.map((s) => s.path).sort()).toEqual(["/llms.txt", "/robots.txt"]);
    const b = domainOf(domains, "bare-ready.test");
    expect(b.robots).toEqual({ outcome: "missing", status: 404 });
    expect(b.purposes.every((p) => p.blocked === 0)).toBe(true);
    expect(statusOf(b, "GPTBot", "/")).toMatchObject({ robots: "allowed", status: 200 });
  });

  it("drops a domain no brand lists any more at the next check", async () => {
    await db().brand.update({ where: { id: brandId }, data: { domains: ["acme-ready.test", "bare-ready.test"] } });
    await checkSiteReadiness(owner.workspaceId, { originOf: (d) => (d === "acme-ready.test" ? "http://127.0.0.1:9" : originOf(d)) });
    const rows = await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId }, orderBy: { domain: "asc" } });
    expect(rows.map((r) => r.domain)).toEqual(["acme-ready.test", "bare-ready.test"]);
    // Nothing listens on port 9: no answer, so robots.txt is unreachable.
    expect(rows[0]!.robotsOutcome).toBe("unreachable");
  });

  it("never stores an older run's result over a newer one's: a run held before storing while another checks the same domain", async () => {
    const stored = async () => new Map((await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId } })).map((r) => [r.domain, r]));
    const oldest = [...(await stored()).values()].sort((a, b) => a.checkedAt.getTime() - b.checkedAt.getTime())[0]!.domain;
    // The first run finds every site unreachable (nothing listens on port 9), and is held before storing.
    const gate = gateAt("readiness:before-store");
    const first = checkSiteReadiness(owner.workspaceId, { originOf: () => "http://127.0.0.1:9", budgetMs: 0 });
    await gate.reached;
    // The second (the site fixed, "Check site readiness" clicked) checks the same domain and stores.
    expect(await checkSiteReadiness(owner.workspaceId, { originOf, budgetMs: 0 })).toEqual([oldest]);
    const newer = (await stored()).get(oldest)!;
    expect(newer.robotsOutcome).not.toBe("unreachable");
    gate.open();
    await first;
    expect((await stored()).get(oldest), "the newer check's result stays").toEqual(newer);
  });

  it("past its time budget starts no further domain, and the next run goes on with the longest unchecked", async () => {
    const checkedAt = async () => new Map((await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId } })).map((r) => [r.domain, r.checkedAt.getTime()]));
    const before = await checkedAt();
    const oldest = [...before].sort((a, b) => a[1] - b[1])[0]![0];
    // A budget of nothing: one domain (at least one is always checked), the longest unchecked.
    expect(await checkSiteReadiness(owner.workspaceId, { originOf, budgetMs: 0 })).toEqual([oldest]);
    const after = await checkedAt();
    const other = [...before.keys()].find((d) => d !== oldest)!;
    expect(after.get(oldest)).toBeGreaterThan(before.get(oldest)!);
    expect(after.get(other)).toBe(before.get(other));
    expect(await checkSiteReadiness(owner.workspaceId, { originOf, budgetMs: 0 })).toEqual([other]);
  });
});

describe("Check site readiness and the REST read", () => {
  it("lets admins queue one check per workspace, not members", async () => {
    refused(await member.browser.run(() => checkSiteReadinessAction()), "forbidden");
    expect((await readinessByDomain(owner.workspaceId)).checking).toBe(false);
    ok(await owner.browser.run(() => checkSiteReadinessAction()));
    ok(await owner.browser.run(() => checkSiteReadinessAction()));
    const jobs = await db().$queryRaw<{ task_identifier: string; queue_name: string; payload: { workspaceId: string } }[]>`
      SELECT v.task_identifier, v.queue_name, j.payload FROM graphile_worker.jobs v JOIN graphile_worker._private_jobs j ON j.id = v.id WHERE v.key = ${`readiness:${owner.workspaceId}`}`;
    // In the workspace's own queue: a check asked while one runs waits for it (graphile-worker runs a named queue's jobs one at a time).
    expect(jobs).toEqual([{ task_identifier: "site_readiness", queue_name: `readiness:${owner.workspaceId}`, payload: { workspaceId: owner.workspaceId } }]);
    expect((await readinessByDomain(owner.workspaceId)).checking).toBe(true);
  });

  it("answers GET /api/v1/traffic/readiness with the workspace's own domains only", async () => {
    const key = await createApiKey(owner.workspaceId, { name: "readiness", scope: "read", createdById: owner.userId });
    const result = await callRoute(readinessRoute, { path: "/api/v1/traffic/readiness", apiKey: key.key });
    expect(result.status).toBe(200);
    expect(result.body.checking).toBe(true);
    expect(result.body.domains.map((d: { domain: string }) => d.domain)).toEqual(["acme-ready.test", "bare-ready.test"]);
    expect(result.body.domains[1].robots).toEqual({ outcome: "missing", status: 404 });
    const other = await signUp({ name: "Other Owner", workspaceName: "Elsewhere" });
    const otherKey = await createApiKey(other.workspaceId, { name: "other", scope: "read", createdById: other.userId });
    expect((await callRoute(readinessRoute, { path: "/api/v1/traffic/readiness", apiKey: otherKey.key })).body).toEqual({ checking: false, domains: [] });
    expect((await callRoute(readinessRoute, { path: "/api/v1/traffic/readiness", apiKey: null })).status).toBe(401);
  });

  it("lets a member read it as the Traffic page's card does, checking included", async () => {
    const read = ok(await member.browser.run(() => siteReadinessAction()));
    expect(read.checking).toBe(true);
    expect(JSON.parse(JSON.stringify(read))).toEqual(JSON.parse(JSON.stringify(await readinessByDomain(owner.workspaceId))));
  });

  it("runs the queued check in a worker process: a domain in BEACON_READINESS_ORIGINS at its origin, the others at https://<domain> (names under .test never resolve)", async () => {
    const before = await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId } });
    const fetched = bare.seen.length;
    const worker = await startWorker("w-readiness", { BEACON_READINESS_ORIGINS: `www.bare-ready.test=${bare.base}`, BEACON_READINESS_ALLOW_ADDRESSES: "127.0.0.1" });
    try {
      await waitFor(async () => !(await readinessByDomain(owner.workspaceId)).checking || null, { what: "the readiness job", timeoutMs: 60_000, details: () => worker.output() });
    } finally {
      await worker.stop();
    }
    const after = await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId }, orderBy: { domain: "asc" } });
    expect(after.map((r) => [r.domain, r.robotsOutcome, r.robotsStatus])).toEqual([
      ["acme-ready.test", "unreachable", null],
      ["bare-ready.test", "missing", 404],
    ]);
    expect(bare.seen.slice(fetched).find((r) => r.path === "/robots.txt")?.ua).toMatch(/Beacon-Readiness/);
    for (const row of after) expect(row.checkedAt.getTime()).toBeGreaterThan(Math.max(...before.map((b) => b.checkedAt.getTime())));
  });

  it("never says the check is over beside the rows from before it: a read held between its reads while the check runs whole", async () => {
    ok(await owner.browser.run(() => checkSiteReadinessAction()));
    const key = `readiness:${owner.workspaceId}`;
    let ran = false;
    // What the job does, at the read's worst moment: writes each domain's row, then ends.
    const release = onPausePoint("readiness:between-reads", async () => {
      if (ran) return;
      ran = true;
      await checkSiteReadiness(owner.workspaceId, { originOf });
      await db().$queryRaw`SELECT 1 FROM graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker.jobs WHERE key = ${key}))`;
    });
    try {
      const read = await readinessByDomain(owner.workspaceId);
      expect(ran).toBe(true);
      const now = await db().siteReadiness.findMany({ where: { workspaceId: owner.workspaceId }, orderBy: { domain: "asc" } });
      const shown = read.domains.map((d) => d.checkedAt?.getTime());
      expect(
        read.checking || JSON.stringify(shown) === JSON.stringify(now.map((r) => r.checkedAt.getTime())),
        "an answer that says no check runs (the card stops polling) shows the rows the check wrote",
      ).toBe(true);
    } finally {
      release();
    }
  });
});
