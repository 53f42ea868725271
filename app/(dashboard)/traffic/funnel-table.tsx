"use client";
import { useState } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { PageLink } from "@/components/charts/page-link";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import type { Column } from "@/components/ui/table-columns";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { formatBucket, formatCount, formatInterval, formatPct, MISSING } from "@/lib/format";
import { useChartQuery } from "../analytics/use-analytics-queries";
import { TRAFFIC_PAGE_SIZE } from "../analytics/first-requests";


type Funnel = ChartData<"traffic-funnel">;
type List = Funnel["list"];
/** One own page's row; a column of another source is one more entry below. */
type FunnelRow = Funnel["items"][number];

// What each list is and what to do about its pages.
const LISTS: { list: List; label: string; advice: string }[] = [
  { list: "all", label: "All pages", advice: "Every own page crawled, cited or visited from an assistant in these dates: the most cited first." },
  {
    list: "crawled-not-cited",
    label: "Crawled but never cited",
    advice: "Assistants read these pages but no answer cites them: make them answer your prompts' questions directly (clear headings, facts, comparisons) and link them from pages that are cited.",
  },
  {
    list: "cited-not-crawled",
    label: "Cited but not crawled in 30 days",
    advice: "Answers cite these pages but no AI crawler fetched them in the 30 days before the range's end: check that robots.txt and your firewall let the crawlers in, and that the pages are in your sitemap.",
  },
  {
    list: "blocked-cited",
    label: "Blocked by robots.txt but cited",
    advice:
      "Answers cite these pages, yet your robots.txt keeps out a crawler that assistants search or fetch pages with (per the last site readiness check, which reads robots.txt for every page cited in the 90 days before it): allow it (for example OAI-SearchBot, ChatGPT-User, Claude-User, PerplexityBot) unless you mean to, or the assistant may stop citing or quoting them.",
  },
];

const columns: Column<FunnelRow>[] = [
  {
    id: "page",
    header: "Page",
    className: "min-w-48 max-w-md",
    cell: (p) => (
      <>
        <PageLink url={p.url} title={p.title} />
        {p.robotsUnreachable ? (
          // Crawlers that follow RFC 9309 fetch nothing while robots.txt answers an error or nothing: not its rules.
          <span className="block text-xs text-amber-800" title={p.blockedFor.join(", ")}>
            robots.txt did not answer: every crawler is blocked
          </span>
        ) : p.blockedFor.length > 0 && (
          // A robots.txt that shuts everyone out names dozens: the first few, all of them on hover and in the CSV.
          <span className="block text-xs text-amber-800" title={p.blockedFor.join(", ")}>
            robots.txt blocks {p.blockedFor.slice(0, 3).join(", ")}
            {p.blockedFor.length > 3 ? ` and ${p.blockedFor.length - 3} more` : ""}
          </span>
        )}
      </>
    ),
  },
  { id: "crawls", header: "Crawls", numeric: true, cell: (p) => formatCount(p.crawls) },
  { id: "last", header: "Last crawled", className: "whitespace-nowrap text-slate-700", cell: (p) => (p.lastCrawled ? formatBucket(p.lastCrawled) : "Never") },
  {
    id: "by",
    header: "By",
    className: "min-w-40 text-slate-700",
    cell: (p) => (p.crawlers.length ? p.crawlers.slice(0, 3).map((c) => `${c.crawler} (${formatCount(c.hits)})`).join(", ") + (p.crawlers.length > 3 ? `, +${p.crawlers.length - 3}` : "") : MISSING),
  },
  { id: "answers", header: "Answers citing", numeric: true, cell: (p) => formatCount(p.answers) },
  {
    id: "share",
    header: "Share of answers",
    numeric: true,
    className: "whitespace-nowrap",
    cell: (p) => (
      <>
        {formatPct(p.share.value)}
        {p.answers > 0 && <span className="block text-xs text-slate-500">{formatInterval(p.share.low, p.share.high, "share")}</span>}
      </>
    ),
  },
  {
    id: "visits",
    header: "Visits from assistants",
    numeric: true,
    cell: (p) => (
      <>
        {formatCount(p.visits)}
        {p.visits > 0 && <span className="block text-xs whitespace-nowrap text-slate-500">{p.assistants.map((a) => `${a.assistant} ${formatCount(a.visits)}`).join(", ")}</span>}
      </>
    ),
  },
];

/**
 * The page funnel: per own page, crawled (how often, when last, by whom) and cited (answers citing
 * it, their share of the answers in scope with its 95 % interval), with the lists that say what to do.
 */
export function FunnelTable({ filter, brandName }: { filter: AnalyticsFilterInput; brandName: string }) {
  const [list, setList] = useState<List>("all");
  // A new filter or list starts again at the first page.
  const filterKey = JSON.stringify([filter, list]);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const query = useChartQuery("traffic-funnel", filter, { page, pageSize: TRAFFIC_PAGE_SIZE, list });
  const data = query.data;
  const chosen = LISTS.find((l) => l.list === list)!;
  const csv = data && {
    filename: `traffic-funnel-${list}-${filter.from}-${filter.to}-page-${page}`,
    header: ["domain", "path", "url", "title", "crawls", "last_crawled", "crawlers", "answers", "share", "share_low", "share_high", "visits", "visits_by_assistant", "robots_blocked_for"],
    rows: data.items.map((p) => [p.domain, p.path, p.url, p.title, p.crawls, p.lastCrawled, p.crawlers.map((c) => `${c.crawler}:${c.hits}`).join(" "), p.answers, p.share.value, p.share.low, p.share.high, p.visits, p.assistants.map((a) => `${a.assistant}:${a.visits}`).join(" "), p.blockedFor.join(" ")]),
  };
  return (
    <ChartCard
      title="Page funnel"
      description={`${brandName}'s pages from crawled to cited to visited. Share of answers: answers citing the page out of the ${data ? formatCount(data.answersInScope) : ""} answers in scope (provider and tag filters apply to answers only), with its 95 % interval.`}
      sample={data && `${formatCount(data.total)} pages`}
      status={query}
      isEmpty={!data?.items.length}
      empty={list === "all" ? "No own page was crawled, cited or visited from an assistant in these dates." : "No page in this list: nothing to do here for these dates."}
      csv={csv ?? undefined}
      controls={
        <div className="mb-3 space-y-2">
          <div role="group" aria-label="Which pages" className="flex flex-wrap gap-2">
            {LISTS.map((l) => (
              <button
                key={l.list}
                type="button"
                aria-pressed={list === l.list}
                onClick={() => setList(l.list)}
                className="min-h-11 rounded-md px-3 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 aria-pressed:ring-brand-300 md:min-h-9"
              >
                {l.label}
              </button>
            ))}
          </div>
          <p className="text-xs text-slate-600" data-advice>{chosen.advice}</p>
        </div>
      }
      height={160}
    >
      <div className="-mx-5 -mb-5">
        <DataTable rows={data?.items ?? []} columns={columns} rowKey={(p) => `${p.domain}${p.path}`} label="Page funnel" density="dense" />
        {data && <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(next) => setPaging({ filterKey, page: next })} noun="pages" label="Page funnel pagination" />}
      </div>
    </ChartCard>
  );
}
