"use client";
import { useState, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { formatCount, formatInterval, formatPct } from "@/lib/format";
import { Badge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/field";
import type { Column } from "@/components/ui/table-columns";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { CATEGORY_LABELS, OVERRIDABLE_CATEGORIES, type OverridableCategory, type SourceCategory } from "@/lib/sources/category-labels";
import { gapSourceAction } from "@/lib/sources/gap-actions";
import { useChartQuery } from "../use-analytics-queries";
import { useCitedDomain } from "./use-cited-domain";
import { useSetSourceCategory } from "./use-source-categories";
import { displayHost } from "@/lib/analysis/host";

type GapSource = ChartData<"gap-sources">["items"][number];

const derived = (category: SourceCategory) => category === "own" || category === "competitor";

/**
 * Domains cited in answers that name a competitor and leave the brand out, most such answers
 * first, with the competitors named there and what to do about each. The brand's and the
 * competitors' own sites are left out unless the toggle keeps them. Admins can change a domain's
 * category in place.
 */
export function GapSourcesTable({ filter, brandName, canCategorize, empty }: { filter: AnalyticsFilterInput; brandName: string; canCategorize: boolean; empty: ReactNode }) {
  const [includeEntityDomains, setIncludeEntityDomains] = useState(false);
  const query = useChartQuery("gap-sources", filter, { includeEntityDomains });
  const data = query.data;
  const action = (s: NonNullable<typeof data>["items"][number]) => gapSourceAction({ domain: s.domain, category: s.category, brandName, competitors: s.competitors.map((c) => c.name) });
  const recategorize = useSetSourceCategory();
  const cited = useCitedDomain();
  const csv = data && {
    filename: `gap-sources-${filter.from}-${filter.to}`,
    header: ["domain", "category", "gap_answers_citing", "gap_answers", "share", "share_low", "share_high", "competitors", "action"],
    rows: data.items.map((s) => [s.domain, s.category, s.answers, data.gapAnswers, s.value, s.low, s.high, s.competitors.map((c) => `${c.name} (${c.answers})`).join("; "), action(s)]),
  };
  const columns: Column<GapSource>[] = [
    {
      id: "domain",
      header: "Domain and what to do",
      className: "min-w-64",
      cell: (s) => (
        <>
          <span className="font-medium text-slate-900">{displayHost(s.domain)}</span>
          <span className="block text-xs text-slate-600">{action(s)}</span>
          <a
            href={`${cited.hrefFor(s.domain)}#cited-pages`}
            onClick={(e) => {
              e.preventDefault();
              cited.setDomain(s.domain);
              document.getElementById("cited-pages")?.scrollIntoView({ block: "start" });
            }}
            className="inline-flex min-h-11 items-center text-xs font-medium text-brand-700 underline underline-offset-2"
          >
            Pages cited from {displayHost(s.domain)}
          </a>
        </>
      ),
    },
    {
      id: "category",
      header: "Category",
      className: "text-slate-700",
      cell: (s) =>
        canCategorize && !derived(s.category) ? (
          <Select
            aria-label={`Category of ${displayHost(s.domain)}`}
            value={s.category}
            disabled={recategorize.isPending}
            onChange={(e) => recategorize.mutate({ domain: s.domain, category: e.target.value as OverridableCategory })}
            className="w-56"
          >
            {OVERRIDABLE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </Select>
        ) : (
          <Badge tone={s.category === "competitor" ? "amber" : "slate"}>{CATEGORY_LABELS[s.category]}</Badge>
        ),
    },
    { id: "answers", header: "Answers", numeric: true, className: "text-slate-700", cell: (s) => formatCount(s.answers) },
    {
      id: "share",
      header: "Share",
      numeric: true,
      className: "text-slate-700",
      cell: (s) => (
        <>
          {formatPct(s.value)}
          <span className="block text-xs text-slate-500">{formatInterval(s.low, s.high, "share")}</span>
        </>
      ),
    },
    { id: "competitors", header: "Competitors named", className: "min-w-48 text-slate-700", cell: (s) => s.competitors.map((c) => `${c.name} (${c.answers})`).join(", ") },
  ];
  return (
    <ChartCard
      title="Gap sources"
      description={`Sites cited in answers that name a competitor but not ${brandName}: where to be present, and what to do there. Share = of those answers, with its 95 % interval.`}
      sample={data && `n = ${formatCount(data.gapAnswers)} answers without ${brandName} that name a competitor`}
      status={query}
      isEmpty={!data?.items.length}
      empty={empty}
      csv={csv ?? undefined}
      controls={
        <label className="mb-2 inline-flex min-h-11 items-center gap-2 self-start text-sm text-slate-700">
          <input type="checkbox" className="size-4 accent-brand-600" checked={includeEntityDomains} onChange={(e) => setIncludeEntityDomains(e.target.checked)} />
          Include competitors&apos; and your own sites
        </label>
      }
      height={160}
    >
      <DataTable label="Gap sources" rows={data?.items ?? []} columns={columns} rowKey={(s) => s.domain} className="-mx-5 -mb-5" />
    </ChartCard>
  );
}
