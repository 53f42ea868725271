import type { Metadata } from "next";
import { listFirings, listRules, ruleChoices } from "@/lib/alerts/rules";
import { canEditTrackingSetup, canManageAlerts } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listPromptTags } from "@/lib/prompts/prompts";
import { AlertsPage } from "./alerts-page";

export const metadata: Metadata = { title: "Alerts" };

export default async function Page() {
  const ctx = await requirePageContext();
  const [rules, firings, choices, tags] = await Promise.all([
    listRules(ctx.workspace.id),
    listFirings(ctx.workspace.id),
    ruleChoices(ctx.workspace.id),
    listPromptTags(ctx.workspace.id),
  ]);
  return <AlertsPage initialRules={rules} initialFirings={firings} choices={{ ...choices, tags: tags.map((t) => t.tag) }} canManage={canManageAlerts(ctx)} canTrack={canEditTrackingSetup(ctx)} />;
}
