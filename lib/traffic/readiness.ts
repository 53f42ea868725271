import "server-only";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { jobCatalog } from "@/lib/jobs/catalog";
import { normalizeHost } from "@/lib/analysis/host";
import type { CrawlerPurpose } from "@/lib/traffic/crawlers";
import type { RobotsOutcome } from "@/lib/traffic/robots";
import { ownDomains } from "@/lib/traffic/store";

// The stored site readiness (lib/traffic/readiness-check.ts writes it) as the Traffic page, the
// REST API and exports read it: per own domain, robots.txt's verdicts per crawler grouped by
// purpose, llms.txt, and each crawler's status for the most-cited own pages.

/** What a crawler's user agent got: the final HTTP status, or why there is none. null: not fetched (a robots-only token). */
export type PageStatus = number | "blocked" | "timeout" | "refused" | "error" | null;
export type StoredPage = { url: string; path: string; citations: number };
export type StoredCrawler = { name: string; operator: string; purpose: CrawlerPurpose; root: boolean; pages: { allowed: boolean; status: PageStatus }[] };

const PURPOSES: readonly CrawlerPurpose[] = ["training", "search", "user"];

export type CrawlerReadiness = {
  name: string;
  operator: string;
  /** Whether robots.txt lets it fetch "/". */
  root: "allowed" | "blocked";
  /** One per page of `pages`, in that order. */
  pages: { url: string; robots: "allowed" | "blocked"; status: PageStatus }[];
};

export type DomainReadiness = {
  domain: string;
  /** null: never checked (added to a brand after the last check). */
  checkedAt: Date | null;
  robots: { outcome: RobotsOutcome; status: number | null } | null;
  llmsTxt: { present: boolean; status: number | null } | null;
  /** The most-cited own pages that were checked, most cited first (citations: answers citing it, 90 days). */
  pages: { url: string; citations: number }[];
  /** Crawlers by purpose; each purpose's counts say how many may fetch "/" and how many may not. */
  purposes: { purpose: CrawlerPurpose; allowed: number; blocked: number; crawlers: CrawlerReadiness[] }[];
};

const verdict = (allowed: boolean) => (allowed ? "allowed" : "blocked");

/**
 * The workspace's own domains with their last readiness check, and whether a check is waiting or
 * running (`checking`, for polling). Does not authorize: callers check canView.
 */
export async function readinessByDomain(workspaceId: string): Promise<{ checking: boolean; domains: DomainReadiness[] }> {
  // The job is looked for before the rows are read, never beside them: the job writes its rows
  // and commits before graphile-worker ends it, so an answer that says no check runs (the card
  // stops polling) holds that check's rows. Read at once, it could pair the rows from before the
  // check with its end (tests/integration/site-readiness.test.ts holds a read in between).
  const jobs = await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs
      WHERE key = ${jobCatalog.site_readiness.jobKey({ workspaceId })} AND (attempts < max_attempts OR locked_at IS NOT NULL)`;
  await pausePoint("readiness:between-reads");
  const [domains, rows] = await Promise.all([ownDomains(workspaceId), db().siteReadiness.findMany({ where: { workspaceId } })]);
  const byDomain = new Map(rows.map((r) => [r.domain, r]));
  const list = [...new Set(domains.map(normalizeHost))].sort();
  return {
    checking: (jobs[0]?.n ?? 0) > 0,
    domains: list.map((domain): DomainReadiness => {
      const row = byDomain.get(domain);
      if (!row) return { domain, checkedAt: null, robots: null, llmsTxt: null, pages: [], purposes: [] };
      const pages = row.pages as unknown as StoredPage[];
      const crawlers = row.crawlers as unknown as StoredCrawler[];
      return {
        domain,
        checkedAt: row.checkedAt,
        robots: { outcome: row.robotsOutcome as RobotsOutcome, status: row.robotsStatus },
        llmsTxt: { present: row.llmsTxt, status: row.llmsTxtStatus },
        pages: pages.map((p) => ({ url: p.url, citations: p.citations })),
        purposes: PURPOSES.map((purpose) => {
          const of = crawlers.filter((c) => c.purpose === purpose);
          return {
            purpose,
            allowed: of.filter((c) => c.root).length,
            blocked: of.filter((c) => !c.root).length,
            crawlers: of.map((c) => ({
              name: c.name,
              operator: c.operator,
              root: verdict(c.root),
              pages: c.pages.map((p, i) => ({ url: pages[i]!.url, robots: verdict(p.allowed), status: p.status })),
            })),
          };
        }),
      };
    }),
  };
}
