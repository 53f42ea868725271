import "server-only";
import { env } from "@/lib/config/env";
import { databaseNow } from "@/lib/db/clock";
import { db } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueSiteReadiness } from "@/lib/jobs/enqueue";
import { addressGuard, type AddressGuard } from "@/lib/net/safe-url";
import { parseReadinessOrigins } from "@/lib/net/readiness-origins";
import { parseAddress, parseTrustedProxies } from "@/lib/net/trusted-proxies";
import { normalizeHost } from "@/lib/analysis/host";
import { CRAWLERS } from "@/lib/traffic/crawlers";
import type { PageStatus, StoredCrawler, StoredPage } from "@/lib/traffic/readiness";
import { ROBOTS_MAX_BYTES, robotsOutcome, robotsPolicy, type RobotsPolicy } from "@/lib/traffic/robots";
import { fetchSite, type Fetched, type FetchFailure } from "@/lib/traffic/site-fetch";
import { siteOf } from "@/lib/analysis/citations";
import { ownDomains } from "@/lib/traffic/store";

// Site readiness (issue 21 item 3, docs/traffic.md): per own domain, robots.txt read for every
// AI crawler's token at "/" and at the most-cited own pages, whether /llms.txt exists, and the
// status each crawler's user agent gets for those pages. Run by the site_readiness job; every
// fetch goes through the SSRF guard, with a deadline and a size limit, a few at a time.

/** The most-cited own pages checked per domain. */
const READINESS_PAGES = 5;
/** Cited own URLs per domain whose robots.txt verdicts are stored (rules only, nothing fetched). */
const CITED_URLS_JUDGED = 5_000;
/** Citations counted over this many days. */
const CITED_DAYS = 90;
/** Fetches in flight at once for one domain: a check must not look like an attack on the site. */
const CONCURRENCY = 4;
/** A page's status needs its first bytes only. */
const PAGE_MAX_BYTES = 16 * 1024;
const LLMS_MAX_BYTES = 64 * 1024;

/** A user agent with the crawler's token, as sites match on (their firewall rules look for the token). */
const userAgentOf = (name: string) => `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${name}/1.0; +beacon site readiness)`;
const BEACON_UA = "Mozilla/5.0 (compatible; Beacon-Readiness/1.0)";

let cached: { spec: string | undefined; guard: AddressGuard } | null = null;
/** The guard with the operator's exemptions (BEACON_READINESS_ALLOW_ADDRESSES), rebuilt when the setting changes. */
function readinessGuard(): AddressGuard {
  const spec = env().BEACON_READINESS_ALLOW_ADDRESSES;
  if (cached && cached.spec === spec) return cached.guard;
  const parsed = spec ? parseTrustedProxies(spec) : null;
  const allowed = parsed?.ok ? parsed.proxies : null;
  const guard = addressGuard((address) => {
    const a = allowed ? parseAddress(address) : null;
    return a !== null && allowed !== null && allowed.check(a.address, a.family);
  });
  cached = { spec, guard };
  return guard;
}

/** Where a domain is fetched: its origin in BEACON_READINESS_ORIGINS, else https://<domain>. */
function configuredOriginOf(domain: string): string {
  const spec = env().BEACON_READINESS_ORIGINS;
  const parsed = spec ? parseReadinessOrigins(spec) : null;
  return (parsed?.ok ? parsed.origins.get(domain) : undefined) ?? `https://${domain}`;
}

/** Runs `work` over `items`, `limit` at a time, results in the items' order. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

const isFailure = (r: Fetched | FetchFailure): r is FetchFailure => "failure" in r;

/**
 * The domain's own pages cited in the last CITED_DAYS days (the most-cited CITED_URLS_JUDGED
 * URLs), most cited first, each page once: a URL cited with and without www. (or with another
 * scheme) is one page of the site.
 */
async function citedPages(workspaceId: string, domain: string): Promise<StoredPage[]> {
  const rows = await db().$queryRaw<{ url: string; answers: number }[]>`
    SELECT url, sum(answers)::int AS answers FROM rollup_own_pages
    WHERE "workspaceId" = ${workspaceId}::uuid AND domain = ${siteOf(domain)} AND day >= current_date - ${CITED_DAYS}::int
    GROUP BY url ORDER BY answers DESC, url LIMIT ${CITED_URLS_JUDGED}`;
  const pages = new Map<string, StoredPage>();
  for (const row of rows) {
    let url: URL;
    try {
      url = new URL(row.url);
    } catch {
      continue;
    }
    const path = `${url.pathname}${url.search}`;
    if (normalizeHost(url.hostname) !== domain || pages.has(path)) continue;
    pages.set(path, { url: row.url, path, citations: row.answers });
  }
  return [...pages.values()];
}

/**
 * Per cited page, keyed as the funnel keys a page (the path without its query), the crawlers that
 * answer questions (search and user purposes) robots.txt keeps out of it: the funnel's "Blocked
 * by robots.txt but cited" for every cited page, not only the fetched ones.
 */
function blockedPages(pages: StoredPage[], allowed: RobotsPolicy): { path: string; blockedFor: string[] }[] {
  const answering = CRAWLERS.filter((c) => c.purpose !== "training");
  const byPath = new Map<string, Set<string>>();
  for (const page of pages) {
    const blocked = answering.filter((c) => !allowed(page.path, c.name));
    if (!blocked.length) continue;
    const key = page.path.split("?")[0]!;
    const names = byPath.get(key) ?? new Set<string>();
    for (const c of blocked) names.add(c.name);
    byPath.set(key, names);
  }
  return [...byPath].map(([path, names]) => ({ path, blockedFor: [...names].sort() }));
}

export type ReadinessOptions = {
  /** Where a domain is fetched; default BEACON_READINESS_ORIGINS, then https://<domain>. Tests point it at a local server. */
  originOf?: (domain: string) => string;
  /** The worker's shutdown: fetches in flight end at once and nothing is stored (the job runs again). */
  signal?: AbortSignal;
};

type DomainResult = { row: Omit<Prisma.SiteReadinessCreateManyInput, "workspaceId" | "checkedAt">; blocked: { path: string; blockedFor: string[] }[] };

async function checkDomain(workspaceId: string, domain: string, origin: string, signal?: AbortSignal): Promise<DomainResult> {
  const fetchOptions = { guard: readinessGuard(), timeoutMs: env().BEACON_READINESS_TIMEOUT_MS, signal };
  const [robots, llms, cited] = await Promise.all([
    fetchSite(`${origin}/robots.txt`, { ...fetchOptions, userAgent: BEACON_UA, maxBytes: ROBOTS_MAX_BYTES }),
    fetchSite(`${origin}/llms.txt`, { ...fetchOptions, userAgent: BEACON_UA, maxBytes: LLMS_MAX_BYTES }),
    citedPages(workspaceId, domain),
  ]);
  const pages = cited.slice(0, READINESS_PAGES);
  const outcome = robotsOutcome(isFailure(robots) ? null : robots.status);
  const allowed = robotsPolicy(origin, outcome, isFailure(robots) ? "" : robots.body);
  // A crawler told to stay away is not sent: its status says "blocked", as the crawler would see it.
  const fetchers = CRAWLERS.filter((c) => c.uaToken);
  const jobs = fetchers.flatMap((crawler) => pages.filter((p) => allowed(p.path, crawler.name)).map((page) => ({ crawler, page })));
  const statuses = await pooled(jobs, CONCURRENCY, async ({ crawler, page }) => {
    const answer = await fetchSite(`${origin}${page.path}`, { ...fetchOptions, userAgent: userAgentOf(crawler.name), maxBytes: PAGE_MAX_BYTES });
    return isFailure(answer) ? answer.failure : answer.status;
  });
  const statusOf = new Map(jobs.map((job, i) => [`${job.crawler.name} ${job.page.path}`, statuses[i]!]));
  const crawlers: StoredCrawler[] = CRAWLERS.map((crawler) => ({
    name: crawler.name,
    operator: crawler.operator,
    purpose: crawler.purpose,
    root: allowed("/", crawler.name),
    pages: pages.map((page): { allowed: boolean; status: PageStatus } => {
      const ok = allowed(page.path, crawler.name);
      // Robots-only tokens (Google-Extended) have no user agent: their operator fetches with its main crawler.
      const status: PageStatus = !crawler.uaToken ? null : ok ? (statusOf.get(`${crawler.name} ${page.path}`) ?? null) : "blocked";
      return { allowed: ok, status };
    }),
  }));
  // "200 with text" (text/plain or text/markdown, as servers type .txt and .md): a catch-all that
  // answers every path with the site's HTML page, or with an untyped body, is not an llms.txt.
  const llmsTxt = !isFailure(llms) && llms.status === 200 && llms.body.trim().length > 0 && /^text\/(?!html)/i.test(llms.contentType ?? "");
  return {
    row: {
      domain,
      robotsOutcome: outcome,
      robotsStatus: isFailure(robots) ? null : robots.status,
      llmsTxt,
      llmsTxtStatus: isFailure(llms) ? null : llms.status,
      pages: pages as unknown as Prisma.InputJsonValue,
      crawlers: crawlers as unknown as Prisma.InputJsonValue,
    },
    blocked: blockedPages(cited, allowed),
  };
}

/** How long one readiness job may go on starting domains (one stalled site can take minutes). */
const JOB_BUDGET_MS = 10 * 60_000;

/**
 * Checks the own domains of the workspace (the domains of its brands), the longest unchecked
 * first, and replaces each one's stored readiness as soon as it is checked; domains no brand lists
 * any more lose theirs. After `budgetMs` no further domain is started: the next run (daily, or
 * "Check site readiness") goes on with those, since they are then the longest unchecked. A domain
 * cut short by the worker's shutdown keeps its previous result. Idempotent. Returns the domains
 * checked.
 */
export async function checkSiteReadiness(workspaceId: string, options: ReadinessOptions & { budgetMs?: number } = {}): Promise<string[]> {
  const started = performance.now();
  const domains = [...new Set((await ownDomains(workspaceId)).map(normalizeHost))];
  await db().siteReadiness.deleteMany({ where: { workspaceId, domain: { notIn: domains } } });
  const lastChecked = new Map((await db().siteReadiness.findMany({ where: { workspaceId }, select: { domain: true, checkedAt: true } })).map((r) => [r.domain, r.checkedAt.getTime()]));
  domains.sort((a, b) => (lastChecked.get(a) ?? -Infinity) - (lastChecked.get(b) ?? -Infinity) || a.localeCompare(b));
  const originOf = options.originOf ?? configuredOriginOf;
  const checked: string[] = [];
  // One domain at a time: the fetches within one already run CONCURRENCY at once.
  for (const domain of domains) {
    if (checked.length && performance.now() - started >= (options.budgetMs ?? JOB_BUDGET_MS)) break;
    // When this domain's check began, by the database's clock: a run's result is stored only over
    // one that began earlier. Two runs of a workspace may overlap (a click while the daily run is
    // under way); the one still fetching would otherwise write its older findings over the newer.
    const checkedAt = await databaseNow();
    const { row: result, blocked } = await checkDomain(workspaceId, domain, originOf(domain), options.signal);
    options.signal?.throwIfAborted();
    const row = { ...result, workspaceId, checkedAt };
    await pausePoint("readiness:before-store");
    await transaction(async (tx) => {
      const [stored] = await tx.$queryRaw<{ checkedAt: Date }[]>`
        SELECT "checkedAt" FROM site_readiness WHERE "workspaceId" = ${workspaceId}::uuid AND domain = ${domain} FOR UPDATE`;
      if (stored && stored.checkedAt > checkedAt) return;
      await tx.siteReadiness.upsert({ where: { workspaceId_domain: { workspaceId, domain } }, create: row, update: row });
      await tx.siteReadinessBlockedPage.deleteMany({ where: { workspaceId, domain } });
      await tx.siteReadinessBlockedPage.createMany({ data: blocked.map((b) => ({ workspaceId, domain, ...b })) });
    });
    checked.push(domain);
  }
  return checked;
}

/** "Check site readiness": the check runs in the worker. Does not authorize: callers check canCheckSiteReadiness. */
export async function requestSiteReadiness(workspaceId: string): Promise<void> {
  await transaction((tx) => enqueueSiteReadiness(tx, { workspaceId }));
}

/** The daily pass: one job per workspace whose brands list a domain. Returns the workspaces. */
export async function scheduleSiteReadiness(): Promise<string[]> {
  const rows = await db().brand.findMany({ where: { domains: { isEmpty: false } }, select: { workspaceId: true }, distinct: ["workspaceId"] });
  const workspaceIds = rows.map((r) => r.workspaceId);
  await transaction(async (tx) => {
    for (const workspaceId of workspaceIds) await enqueueSiteReadiness(tx, { workspaceId });
  });
  return workspaceIds;
}
