import type { Metadata } from "next";
import { analyticsOptions } from "@/lib/analytics/options";
import { hasTrafficLogs } from "@/lib/analytics/traffic";
import { requirePageContext } from "@/lib/auth/session";
import { canCheckSiteReadiness } from "@/lib/permissions/permissions";
import { siteKeyOf } from "@/lib/traffic/visits";
import { TrafficPage } from "./traffic-page";

export const metadata: Metadata = { title: "Traffic" };

export default async function Page() {
  const ctx = await requirePageContext();
  const [options, imported, siteKey] = await Promise.all([analyticsOptions(ctx.workspace.id), hasTrafficLogs(ctx.workspace.id), siteKeyOf(ctx.workspace.id)]);
  return <TrafficPage options={options} imported={imported} hasSiteKey={siteKey !== null} canCheckReadiness={canCheckSiteReadiness(ctx)} />;
}
