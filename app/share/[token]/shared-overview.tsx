"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { PreparedBy } from "@/components/shell/prepared-by";
import { PrintButton } from "@/components/ui/print-button";
import { analyticsKey } from "@/app/(dashboard)/analytics/use-analytics-queries";
import { KpiTiles } from "@/app/(dashboard)/analytics/overview/kpi-tiles";
import { MarketTable } from "@/app/(dashboard)/analytics/overview/market-table";
import { PositionChart } from "@/app/(dashboard)/analytics/overview/position-chart";
import { ShareOfVoiceChart } from "@/app/(dashboard)/analytics/overview/share-of-voice-chart";
import { VisibilityChart } from "@/app/(dashboard)/analytics/overview/visibility-chart";
import { TopDomainsChart } from "@/app/(dashboard)/analytics/sources/top-domains-chart";
import { SHARED_CHARTS } from "@/lib/share-links/schemas";
import type { SharedReport } from "@/lib/share-links/report";
import { formatDay, formatUtcDateTime } from "@/lib/format";

/**
 * The Overview's own charts, fed with the numbers the server read for this link: each chart's
 * query is filled under the key its hook asks for, and this client never fetches (the charts'
 * GET needs a session; a viewer of a link has none).
 */
function useReportClient(report: SharedReport) {
  const [client] = useState(() => {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity, retry: false, refetchOnMount: false, refetchOnWindowFocus: false, refetchOnReconnect: false } },
    });
    for (const chart of SHARED_CHARTS) queryClient.setQueryData(analyticsKey(chart, report.filter), report.charts[chart]);
    return queryClient;
  });
  return client;
}

export function SharedOverview({ report, token }: { report: SharedReport; token: string }) {
  const client = useReportClient(report);
  const { filter, brandName } = report;
  const empty = <>No answers about {brandName} in this period.</>;
  const markets = report.charts.markets as unknown[];
  const scope = [
    report.rolling ? `Last ${report.rolling} days (${formatDay(filter.from!)} – ${formatDay(filter.to!)}, UTC)` : `${formatDay(filter.from!)} – ${formatDay(filter.to!)} (UTC)`,
    report.providers.length ? `Providers: ${report.providers.join(", ")}` : "All providers",
    filter.tags?.length ? `Tags: ${filter.tags.join(", ")}` : null,
    filter.markets?.length ? `Markets: ${filter.markets.join(", ")}` : null,
  ].filter(Boolean);
  return (
    <QueryClientProvider client={client}>
      <main className="mx-auto max-w-6xl px-6 py-8 print:max-w-none print:p-0">
        <header className="mb-6 flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 pb-4">
          <div>
            <PreparedBy name={report.agency.name} logoSrc={report.agency.hasLogo ? `/share/${token}/logo` : null} className="mb-3" />
            <h1 className="text-xl font-semibold text-slate-900">{brandName}: how AI assistants talk about it</h1>
            <p className="mt-1 text-sm text-slate-600" data-report-scope>{scope.join(" · ")}</p>
            <p className="mt-1 text-xs text-slate-500">Every number counts answers from succeeded captures and shows its sample size and 95% interval.</p>
          </div>
          <PrintButton />
        </header>
        {report.reanalysing && (
          <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
            {brandName}&apos;s past answers are being re-analysed with its current names, domains and competitors. Until that is done, these numbers mix answers analysed with
            earlier and current settings.
          </p>
        )}
        <KpiTiles filter={filter} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 print:block print:space-y-6">
          <div className="lg:col-span-2">
            <VisibilityChart filter={filter} brandName={brandName} empty={empty} />
          </div>
          <ShareOfVoiceChart filter={filter} empty={empty} />
          <PositionChart filter={filter} brandName={brandName} empty={empty} />
          {markets.length > 1 && (
            <div className="lg:col-span-2">
              <MarketTable filter={filter} brandName={brandName} empty={empty} />
            </div>
          )}
          <div className="lg:col-span-2">
            <TopDomainsChart filter={filter} empty={empty} />
          </div>
        </div>
        <footer className="mt-8 text-xs text-slate-500">
          A read-only report shared from Beacon. This link works until {formatUtcDateTime(report.expiresAt)}.
        </footer>
      </main>
    </QueryClientProvider>
  );
}
