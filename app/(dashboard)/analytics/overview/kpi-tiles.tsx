"use client";
import { formatInterval, formatPct, formatPosition, sampleNote } from "@/lib/format";
import { KpiTile } from "@/components/charts/kpi-tile";
import { STALE_CLASSES, StaleCue } from "@/components/charts/stale-cue";
import { Card } from "@/components/ui/card";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";
import { KpiDelta } from "./kpi-delta";

type Kpi = ChartData<"kpis">["visibility"];

const shareTile = (kpi: Kpi, leftOut: number) => ({
  value: formatPct(kpi.current.value),
  interval: formatInterval(kpi.current.low, kpi.current.high, "share"),
  delta: <KpiDelta kpi={kpi} kind="share" leftOut={leftOut} />,
});

const SENTIMENT = [
  { key: "positive", label: "positive", color: "bg-emerald-500" },
  { key: "neutral", label: "neutral", color: "bg-slate-300" },
  { key: "negative", label: "negative", color: "bg-red-500" },
] as const;

/** The four headline numbers of the Overview, each with n, 95 % interval and change. */
export function KpiTiles({ filter }: { filter: AnalyticsFilterInput }) {
  const query = useChartQuery("kpis", filter);
  if (query.isError) {
    return <Card role="alert" className="mb-6 p-4 text-sm text-red-600">Could not load the headline numbers: {query.error.message}</Card>;
  }
  const kpis = query.data;
  const loading = query.isPending || !kpis;
  const position = kpis?.averagePosition;
  const sentiment = kpis?.sentiment;
  return (
    <div className="relative mb-6" aria-busy={loading || query.isPlaceholderData || undefined} data-testid="kpi-tiles">
      {query.isPlaceholderData && <StaleCue />}
      <div className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-4 ${query.isPlaceholderData ? STALE_CLASSES : ""}`}>
        {loading ? (
          ["Visibility", "Share of voice", "Average position", "Sentiment"].map((label) => <KpiTile key={label} label={label} value="" loading />)
        ) : (
          <>
            <KpiTile label="Visibility" {...shareTile(kpis.visibility, kpis.promptsInOnePeriod)} n={sampleNote(kpis.visibility.current.n)} />
            <KpiTile label="Share of voice" {...shareTile(kpis.shareOfVoice, kpis.promptsInOnePeriod)} n={sampleNote(kpis.shareOfVoice.current.n)} />
            <KpiTile
              label="Average position"
              value={formatPosition(position!.current.value)}
              interval={formatInterval(position!.current.low, position!.current.high, "number")}
              n={sampleNote(position!.current.n, "mentions")}
              delta={<KpiDelta kpi={position!} kind="number" better="down" unit="mentions" leftOut={kpis.promptsInOnePeriod} />}
            />
            <KpiTile
              label="Sentiment"
              value={<>{formatPct(sentiment!.positive.current.value)} <span className="text-sm font-normal text-slate-500">positive</span></>}
              interval={formatInterval(sentiment!.positive.current.low, sentiment!.positive.current.high, "share")}
              n={sampleNote(sentiment!.positive.current.n, "mentions")}
              delta={<KpiDelta kpi={sentiment!.positive} kind="share" unit="mentions" leftOut={kpis.promptsInOnePeriod} />}
            >
              {sentiment!.positive.current.n > 0 && (
                <div className="mt-2">
                  <div className="flex h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                    {SENTIMENT.map((s) => (
                      <div key={s.key} className={s.color} style={{ width: `${(sentiment![s.key].current.value ?? 0) * 100}%` }} />
                    ))}
                  </div>
                  <p className="mt-1 text-xs text-slate-500">
                    {SENTIMENT.map((s) => `${formatPct(sentiment![s.key].current.value)} ${s.label}`).join(" · ")}
                  </p>
                </div>
              )}
            </KpiTile>
          </>
        )}
      </div>
    </div>
  );
}
