import type { Metadata } from "next";
import { analyticsOptions } from "@/lib/analytics/options";
import { requirePageContext } from "@/lib/auth/session";
import { toSearchParams } from "@/lib/pages/prefetch";
import { FetchPreloads } from "@/lib/pages/preload";
import { filterState } from "../filter-state";
import { firstRequests } from "../first-requests";
import { canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { CostsPage } from "./costs-page";

export const metadata: Metadata = { title: "Costs" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  const preloads = options.brands.length ? firstRequests.costs(filterState(toSearchParams(await searchParams), options).input) : [];
  return (
    <>
      <FetchPreloads paths={preloads} />
      <CostsPage options={options} canSetBudget={canManageWorkspaceSettings(ctx)} />
    </>
  );
}
