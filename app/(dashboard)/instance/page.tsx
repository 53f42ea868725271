import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { requirePageContext } from "@/lib/auth/session";
import { canManageInstance, isOperator } from "@/lib/instance/operators";
import { engineChoices } from "@/lib/providers/registry";
import { InstancePage } from "./instance-page";

export const metadata: Metadata = { title: "Instance" };

export default async function Page() {
  const ctx = await requirePageContext();
  if (!canManageInstance({ isOperator: await isOperator(ctx.userId) })) {
    return (
      <>
        <PageHeader title="Instance" />
        <EmptyState
          title="Only operators can see this page"
          description="Operators run this Beacon server: they set up the provider connections and decide which workspaces may use them. Ask one of them if your workspace needs a provider it does not have."
        />
      </>
    );
  }
  return <InstancePage me={ctx.userId} engines={engineChoices()} />;
}
