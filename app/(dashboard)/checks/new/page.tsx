import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { listBrands } from "@/lib/brands/brands";
import { listPromptChoices, listPromptTags } from "@/lib/prompts/prompts";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";
import { NewCheckForm } from "./new-check-form";

export const metadata: Metadata = { title: "New check" };

export default async function Page() {
  const ctx = await requirePageContext();
  if (!canStartCheck(ctx)) redirect("/checks");
  const [brands, tags, providers, prompts] = await Promise.all([
    listBrands(ctx.workspace.id),
    listPromptTags(ctx.workspace.id),
    listProviderConfigs(ctx.workspace.id),
    listPromptChoices(ctx.workspace.id),
  ]);
  return (
    <NewCheckForm
      brands={brands.map((b) => ({ id: b.id, name: b.name, competitors: b.competitors.length }))}
      tags={tags}
      prompts={prompts}
      providers={providers.map((p) => ({ id: p.id, name: p.name, model: p.model, adapter: p.adapter, enabled: p.enabled, configured: p.configured, granted: p.granted }))}
    />
  );
}
