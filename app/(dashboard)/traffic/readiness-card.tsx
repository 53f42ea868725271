"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { toast } from "@/lib/browser/toast";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { SectionHeading } from "@/components/ui/section-heading";
import type { Column } from "@/components/ui/table-columns";
import { checkSiteReadinessAction } from "@/lib/actions/site-readiness";
import { unwrap } from "@/lib/browser/action-result";
import { readFreshAfterWrite } from "@/lib/browser/fresh-reads";
import { formatUtcDateTime, MISSING } from "@/lib/format";
import { readinessQuery } from "./queries";
import { displayHost } from "@/lib/analysis/host";

type Readiness = Awaited<ReturnType<typeof readinessQuery.queryFn>>;
type Domain = Readiness["domains"][number];
type CrawlerRow = Domain["purposes"][number]["crawlers"][number] & { purpose: string };

const PURPOSE: Record<string, string> = { training: "Model training", search: "Search index", user: "Live fetch for a user" };

const ROBOTS: Record<string, string> = {
  found: "found",
  missing: "none (every crawler may fetch everything)",
  unreachable: "did not answer (crawlers then fetch nothing)",
};

const statusText = (status: CrawlerRow["pages"][number]["status"]) =>
  status === null ? MISSING : status === "blocked" ? "Blocked by robots.txt" : typeof status === "number" ? String(status) : status[0]!.toUpperCase() + status.slice(1);

/** One domain's readiness: robots.txt, llms.txt, crawlers allowed per purpose, and a crawler × page table in a disclosure. */
function DomainReadiness({ domain }: { domain: Domain }) {
  const crawlers = useMemo<CrawlerRow[]>(() => domain.purposes.flatMap((p) => p.crawlers.map((c) => ({ ...c, purpose: p.purpose }))), [domain]);
  const columns = useMemo<Column<CrawlerRow>[]>(
    () => [
      { id: "crawler", header: "Crawler", className: "font-medium text-slate-900 whitespace-nowrap", cell: (c) => c.name },
      { id: "purpose", header: "Purpose", className: "text-slate-700 whitespace-nowrap", cell: (c) => PURPOSE[c.purpose] },
      { id: "root", header: "robots.txt at /", className: "whitespace-nowrap", cell: (c) => (c.root === "allowed" ? "Allowed" : "Blocked") },
      ...domain.pages.map(
        (page, i): Column<CrawlerRow> => ({
          id: `page-${i}`,
          header: new URL(page.url).pathname + new URL(page.url).search,
          headerTitle: page.url,
          className: "whitespace-nowrap text-slate-700",
          cell: (c) => statusText(c.pages[i]?.status ?? null),
        }),
      ),
    ],
    [domain],
  );
  if (!domain.checkedAt) {
    return (
      <div className="py-4">
        <h3 className="text-sm font-semibold text-slate-900">{displayHost(domain.domain)}</h3>
        <p className="mt-1 text-sm text-slate-600">Not checked yet: the daily check (05:23 UTC) or an admin&apos;s check will read it.</p>
      </div>
    );
  }
  return (
    <div className="py-4" data-domain={domain.domain}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{displayHost(domain.domain)}</h3>
        <p className="text-xs text-slate-500">Last checked {formatUtcDateTime(domain.checkedAt)}</p>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-600">robots.txt</dt>
        <dd className="text-slate-900">
          {ROBOTS[domain.robots?.outcome ?? "unreachable"]}
          {domain.robots?.status ? ` (HTTP ${domain.robots.status})` : ""}
        </dd>
        <dt className="text-slate-600">llms.txt</dt>
        <dd className="text-slate-900">{domain.llmsTxt?.present ? "Yes" : "No"}</dd>
        {domain.purposes.map((p) => (
          <div key={p.purpose} className="contents">
            <dt className="text-slate-600">{PURPOSE[p.purpose]}</dt>
            <dd className="flex flex-wrap gap-2">
              <Badge tone={p.allowed ? "green" : "slate"}>{p.allowed} allowed</Badge>
              <Badge tone={p.blocked ? "amber" : "slate"}>{p.blocked} blocked</Badge>
            </dd>
          </div>
        ))}
      </dl>
      <details className="group mt-3">
        <summary className="min-h-11 cursor-pointer rounded-md py-2 text-sm font-medium text-brand-700 md:min-h-0 md:py-1">
          Each crawler&apos;s answer for {domain.pages.length === 1 ? "the most-cited page" : domain.pages.length ? `the ${domain.pages.length} most-cited pages` : "the site"}
        </summary>
        <p className="mt-1 mb-2 text-xs text-slate-600">
          {domain.pages.length
            ? "The HTTP status the page gave each crawler's user agent; \"Blocked by robots.txt\" pages were not fetched, as the crawler would not fetch them. Robots-only tokens have no user agent of their own."
            : "No own page of this domain was cited in the last 90 days, so only robots.txt was read."}
        </p>
        <div className="-mx-5">
          <DataTable rows={crawlers} columns={columns} rowKey={(c) => c.name} label={`Crawler statuses for ${displayHost(domain.domain)}`} density="dense" />
        </div>
      </details>
    </div>
  );
}

/**
 * Site readiness per own domain as last checked, and "Check site readiness" for admins: the
 * check runs in the worker, and the card polls while it is waiting or running.
 */
export function ReadinessCard({ canCheck }: { canCheck: boolean }) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...readinessQuery, refetchInterval: (q) => (q.state.data?.checking ? 1000 : false) });
  const check = useMutation({
    mutationFn: async () => unwrap(await checkSiteReadinessAction()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: readinessQuery.queryKey }),
    onError: (error) => toast.error(error.message),
  });
  const checking = !!query.data?.checking || check.isPending;
  // A finished check changes the funnel's "blocked by robots.txt" column and list: read it again
  // when a result newer than the one first shown arrives. Keyed on the results, not on the
  // "checking" flag: a check that ends before the card's next poll never shows it as true.
  const results = query.data?.domains.map((d) => `${d.domain}@${d.checkedAt ? new Date(d.checkedAt).getTime() : ""}`).join(",");
  const shownResults = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (results === undefined) return;
    if (shownResults.current !== undefined && shownResults.current !== results) {
      // The results were read on the primary; a read replica may not have them yet.
      readFreshAfterWrite();
      void queryClient.invalidateQueries({ queryKey: ["analytics", "traffic-funnel"] });
    }
    shownResults.current = results;
  }, [results, queryClient]);
  return (
    <Card className="p-5" role="region" aria-labelledby="site-readiness">
      <SectionHeading
        id="site-readiness"
        title="Site readiness"
        description="Whether AI crawlers may read your domains (robots.txt, per purpose), whether llms.txt exists, and what your most-cited pages answer each crawler. Checked daily."
        action={
          canCheck && (
            <Button variant="secondary" onClick={() => check.mutate()} disabled={checking} pending={checking} className="min-h-11 md:min-h-0">
              {checking ? "Checking…" : "Check site readiness"}
            </Button>
          )
        }
      />
      {checking && (
        <p role="status" className="mt-2 text-sm text-slate-600">
          Checking… the worker fetches robots.txt, llms.txt and the pages; this card updates when it is done.
        </p>
      )}
      {query.isError ? (
        <p className="mt-4 text-sm text-red-700">Could not load site readiness: {query.error.message}</p>
      ) : !query.data ? (
        <p className="mt-4 text-sm text-slate-500" aria-busy="true">Loading…</p>
      ) : !query.data.domains.length ? (
        <p className="mt-4 text-sm text-slate-600">No brand lists a domain: add your site&apos;s domain to a brand to check it.</p>
      ) : (
        <div className="mt-2 divide-y divide-slate-200">
          {query.data.domains.map((d) => (
            <DomainReadiness key={d.domain} domain={d} />
          ))}
        </div>
      )}
    </Card>
  );
}
