import type { Metadata } from "next";
import { analyticsOptions } from "@/lib/analytics/options";
import { requirePageContext } from "@/lib/auth/session";
import { toSearchParams, type PageSearchParams } from "@/lib/pages/prefetch";
import { ChartsPreload } from "@/lib/pages/preload";
import { firstRequests } from "../first-requests";
import { canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { CostsPage } from "./costs-page";

export const metadata: Metadata = { title: "Costs" };

export default async function Page({ searchParams }: { searchParams: PageSearchParams }) {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  const preloads = firstRequests.costs(toSearchParams(await searchParams), options);
  return (
    <>
      <ChartsPreload charts={preloads} />
      <CostsPage options={options} canSetBudget={canManageWorkspaceSettings(ctx)} />
    </>
  );
}
