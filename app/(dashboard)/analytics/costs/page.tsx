import type { Metadata } from "next";
import { analyticsOptions } from "@/lib/analytics/options";
import { requirePageContext } from "@/lib/auth/session";
import { canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { CostsPage } from "./costs-page";

export const metadata: Metadata = { title: "Costs" };

export default async function Page() {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  return <CostsPage options={options} canSetBudget={canManageWorkspaceSettings(ctx)} />;
}
