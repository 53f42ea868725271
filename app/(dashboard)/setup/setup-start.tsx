import { Card } from "@/components/ui/card";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";
import { setupConnections } from "@/lib/setup/suggestions";
import { SetupWizard } from "./setup-wizard";

/**
 * The wizard with what it offers (the connections that may write the suggestions, the providers
 * the first check may ask), or, for a role that may not create brands and start checks, why not.
 * Shown on /setup and on the Overview of a workspace that tracks no brand yet.
 */
export async function SetupStart({ workspaceId, allowed }: { workspaceId: string; allowed: boolean }) {
  if (!allowed) {
    return (
      <Card className="p-5 text-sm text-slate-600">
        <p className="font-medium text-slate-900">This workspace is not set up yet.</p>
        <p className="mt-1">Setting it up creates its brand and questions and starts a check, which viewers cannot do. Ask a member, admin or owner of the workspace to set it up.</p>
      </Card>
    );
  }
  const [connections, providers] = await Promise.all([setupConnections(workspaceId), listProviderConfigs(workspaceId)]);
  return (
    <SetupWizard
      connections={connections}
      providers={providers.filter((p) => p.enabled && p.granted && p.configured).map((p) => ({ id: p.id, name: p.name, model: p.model }))}
    />
  );
}
