import type { Metadata } from "next";
import { canManageSchedules } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { listPromptChoices, listPromptTags } from "@/lib/prompts/prompts";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";
import { listSchedules } from "@/lib/schedules/schedules";
import { SchedulesPage } from "./schedules-page";

export const metadata: Metadata = { title: "Schedules" };

export default async function Page({ searchParams }: { searchParams: Promise<{ new?: string }> }) {
  const ctx = await requirePageContext();
  // ?new=1 (from the suggestion after a first check) opens the new-schedule dialog.
  const startNew = (await searchParams).new === "1";
  const [schedules, brands, tags, prompts, providers] = await Promise.all([
    listSchedules(ctx.workspace.id),
    listBrands(ctx.workspace.id),
    listPromptTags(ctx.workspace.id),
    listPromptChoices(ctx.workspace.id),
    listProviderConfigs(ctx.workspace.id),
  ]);
  return (
    <SchedulesPage
      initialSchedules={schedules}
      canEdit={canManageSchedules(ctx)}
      startNew={startNew}
      choices={{
        brands: brands.map((b) => ({ id: b.id, name: b.name })),
        tags,
        prompts,
        providers: providers.map((p) => ({ id: p.id, name: p.name, model: p.model, adapter: p.adapter, enabled: p.enabled, configured: p.configured, granted: p.granted })),
      }}
    />
  );
}
