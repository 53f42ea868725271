"use client";
import { PageHeader } from "@/components/ui/card";
import { ApiKeysSection } from "./api-keys-section";
import { BrandingSection } from "./branding-section";
import { ProvidersSection } from "./providers-section";
import { ShareLinksSection } from "./share-links-section";
import { WorkspaceSection } from "./workspace-section";

export function SettingsPage({ isAdmin }: { isAdmin: boolean }) {
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          isAdmin
            ? "Workspace name and budget, the AI providers checks use, share links, agency branding and keys for the REST API."
            : "Your keys for the REST API. Owners and admins also manage the workspace and its providers here."
        }
      />
      <div className="space-y-10">
        {isAdmin && <WorkspaceSection />}
        {isAdmin && <ProvidersSection />}
        {isAdmin && <ShareLinksSection />}
        {isAdmin && <BrandingSection />}
        <ApiKeysSection />
      </div>
    </>
  );
}
