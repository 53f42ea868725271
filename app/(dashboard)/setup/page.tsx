import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { canManageSchedules, canRunSetup } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { SetupPath } from "./setup-path";

export const metadata: Metadata = { title: "Set up" };

export default async function Page() {
  const ctx = await requirePageContext();
  return (
    <>
      <PageHeader title="Set up from your website" description="Beacon proposes your brand, competitors and the questions your buyers ask; you edit them and start the first check." />
      <SetupPath workspaceId={ctx.workspace.id} allowed={canRunSetup(ctx)} canManageSchedules={canManageSchedules(ctx)} />
    </>
  );
}
