import type { Metadata } from "next";
import { analyticsOptions } from "@/lib/analytics/options";
import { hasTrafficLogs } from "@/lib/analytics/traffic";
import { requirePageContext } from "@/lib/auth/session";
import { canCheckSiteReadiness } from "@/lib/permissions/permissions";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { prefetch, toSearchParams, type PageSearchParams } from "@/lib/pages/prefetch";
import { ChartsPreload } from "@/lib/pages/preload";
import { siteKeyOf } from "@/lib/traffic/visits";
import { firstRequests } from "../analytics/first-requests";
import { readinessQuery } from "./queries";
import { TrafficPage } from "./traffic-page";

export const metadata: Metadata = { title: "Traffic" };

export default async function Page({ searchParams }: { searchParams: PageSearchParams }) {
  const ctx = await requirePageContext();
  const [options, imported, siteKey] = await Promise.all([analyticsOptions(ctx.workspace.id), hasTrafficLogs(ctx.workspace.id), siteKeyOf(ctx.workspace.id)]);
  const preloads = firstRequests.traffic(toSearchParams(await searchParams), options, imported);
  // The site readiness card's query is a server action: started here, streamed with the page.
  const first = prefetch(options.brands.length ? [readinessQuery] : []);
  return (
    <PrefetchedQueries state={first}>
      <ChartsPreload charts={preloads} />
      <TrafficPage options={options} imported={imported} hasSiteKey={siteKey !== null} canCheckReadiness={canCheckSiteReadiness(ctx)} />
    </PrefetchedQueries>
  );
}
