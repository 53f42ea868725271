"use client";
import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/card";
import { TabNav } from "@/components/ui/tab-nav";
import { ApiKeysSection } from "./api-keys-section";
import { BrandingSection } from "./branding-section";
import { ProvidersSection } from "./providers-section";
import { ShareLinksSection } from "./share-links-section";
import { SiteKeySection } from "./site-key-section";
import { WorkspaceSection } from "./workspace-section";

// One tab per part of the settings (it was one long page): `?tab=` in the address, so a tab can
// be linked to and survives a reload. Members who are not admins see their API keys only.
const SECTIONS: { id: string; label: string; adminOnly: boolean; render: () => ReactNode }[] = [
  { id: "workspace", label: "Workspace", adminOnly: true, render: () => <WorkspaceSection /> },
  { id: "providers", label: "Providers", adminOnly: true, render: () => <ProvidersSection /> },
  { id: "share-links", label: "Share links", adminOnly: true, render: () => <ShareLinksSection /> },
  { id: "branding", label: "Branding", adminOnly: true, render: () => <BrandingSection /> },
  { id: "site-key", label: "Visits script", adminOnly: true, render: () => <SiteKeySection /> },
  { id: "api-keys", label: "API keys", adminOnly: false, render: () => <ApiKeysSection /> },
];

export function SettingsPage({ isAdmin }: { isAdmin: boolean }) {
  const asked = useSearchParams().get("tab");
  const sections = SECTIONS.filter((section) => isAdmin || !section.adminOnly);
  const current = sections.find((section) => section.id === asked) ?? sections[0]!;
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          isAdmin
            ? "Workspace name and budget, the AI providers checks use, share links, agency branding, the visits script and keys for the REST API."
            : "Your keys for the REST API. Owners and admins also manage the workspace and its providers here."
        }
        tabs={sections.length > 1 ? <TabNav label="Settings" tabs={sections.map((s) => ({ href: `/settings?tab=${s.id}`, label: s.label, active: s === current }))} /> : undefined}
      />
      {current.render()}
    </>
  );
}
