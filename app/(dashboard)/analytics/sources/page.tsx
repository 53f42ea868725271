import type { Metadata } from "next";
import { pageCharts } from "@/lib/analytics/charts";
import { analyticsOptions } from "@/lib/analytics/options";
import { canCategorizeSources, canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { SourcesPage } from "./sources-page";

export const metadata: Metadata = { title: "Sources" };

export default async function Page() {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  return <SourcesPage options={options} canStart={canStartCheck(ctx)} canCategorize={canCategorizeSources(ctx)} charts={pageCharts("sources")} />;
}
