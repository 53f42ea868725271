"use client";
import { useMemo, useState, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { formatInterval, formatPct, formatPosition, sampleNote } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Row = ChartData<"prompts">[number];
type SortKey = "text" | "n" | "visibility" | "position" | "losses";

const sorters: Record<SortKey, (r: Row) => number | string> = {
  text: (r) => r.text.toLowerCase(),
  n: (r) => r.n,
  visibility: (r) => r.visibility.value ?? -1,
  position: (r) => r.averagePosition.value ?? Number.POSITIVE_INFINITY,
  losses: (r) => r.losesTo?.captures ?? 0,
};

/** Per prompt: answers, visibility, average position, and the competitor the brand loses to most. */
export function PromptTable({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery("prompts", filter);
  const prompts = query.data;
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "n", desc: true });
  const rows = useMemo(() => {
    const pick = sorters[sort.key];
    return [...(prompts ?? [])].sort((a, b) => {
      const [x, y] = [pick(a), pick(b)];
      const order = x < y ? -1 : x > y ? 1 : 0;
      return (sort.desc ? -order : order) || a.text.localeCompare(b.text);
    });
  }, [prompts, sort]);
  const total = prompts?.reduce((sum, p) => sum + p.n, 0) ?? 0;
  const csv = prompts && {
    filename: `prompts-${filter.from}-${filter.to}`,
    header: ["prompt", "tags", "answers", "visibility", "ci95_low", "ci95_high", "average_position", "loses_to", "lost_answers", "brand_absent", "competitor_ahead"],
    rows: rows.map((r) => [
      r.text,
      r.tags.join(" "),
      r.n,
      r.visibility.value,
      r.visibility.low,
      r.visibility.high,
      r.averagePosition.value,
      r.losesTo?.name ?? "",
      r.losesTo?.captures ?? 0,
      r.losesTo?.instead ?? 0,
      r.losesTo?.ahead ?? 0,
    ]),
  };
  const header = (key: SortKey, label: string, align = "text-left") => (
    <th scope="col" className={`px-4 py-3 ${align}`} aria-sort={sort.key === key ? (sort.desc ? "descending" : "ascending") : "none"}>
      <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-slate-900" onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : key !== "text" && key !== "position" })}>
        {label}
        <span aria-hidden className="text-slate-400">{sort.key === key ? (sort.desc ? "↓" : "↑") : ""}</span>
      </button>
    </th>
  );
  return (
    <ChartCard
      title="Prompts"
      description={`Where ${brandName} shows up, and who answers take instead: the competitor most often named ahead of ${brandName} or in its place.`}
      sample={prompts && `${sampleNote(total)} · ${prompts.length} prompts`}
      status={query}
      isEmpty={!prompts?.length}
      empty={empty}
      csv={csv ?? undefined}
      height={160}
    >
      <div className="-mx-5 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500">
            <tr>
              {header("text", "Prompt")}
              {header("n", "Answers", "text-right")}
              {header("visibility", "Visibility", "text-right")}
              {header("position", "Avg position", "text-right")}
              {header("losses", "Loses to")}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.promptId} className="align-top hover:bg-slate-50">
                <td className="max-w-md px-4 py-3">
                  <p className="text-slate-900">{r.text}</p>
                  {r.tags.length > 0 && <p className="mt-0.5 text-xs text-slate-500">{r.tags.join(" · ")}</p>}
                </td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{r.n}</td>
                <td className="px-4 py-3 text-right tabular-nums">
                  <span className="font-medium text-slate-900">{formatPct(r.visibility.value)}</span>
                  <span className="block text-xs text-slate-500">{formatInterval(r.visibility.low, r.visibility.high, "share")}</span>
                </td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{formatPosition(r.averagePosition.value, 1)}</td>
                <td className="px-4 py-3 text-slate-700">
                  {r.losesTo ? (
                    <>
                      <span className="font-medium text-slate-900">{r.losesTo.name}</span>
                      <span className="block text-xs text-slate-500">
                        {[r.losesTo.ahead ? `ahead in ${r.losesTo.ahead}` : null, r.losesTo.instead ? `instead in ${r.losesTo.instead}` : null].filter(Boolean).join(", ")} of {r.n}
                      </span>
                    </>
                  ) : (
                    <span className="text-slate-400">No losses</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ChartCard>
  );
}
