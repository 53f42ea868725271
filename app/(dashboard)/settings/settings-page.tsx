"use client";
import { PageHeader } from "@/components/ui/card";
import { ApiKeysSection } from "./api-keys-section";
import { ProvidersSection } from "./providers-section";
import { WorkspaceSection } from "./workspace-section";

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Workspace name and budget, the AI providers checks use, and keys for the REST API. Only owners and admins see this page." />
      <div className="space-y-10">
        <WorkspaceSection />
        <ProvidersSection />
        <ApiKeysSection />
      </div>
    </>
  );
}
