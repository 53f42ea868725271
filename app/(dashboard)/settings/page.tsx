import type { Metadata } from "next";
import { canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { SettingsPage } from "./settings-page";

export const metadata: Metadata = { title: "Settings" };

export default async function Page() {
  const ctx = await requirePageContext();
  // Every member may manage their own API keys here; the rest of the page is for admins.
  return <SettingsPage isAdmin={canManageWorkspaceSettings(ctx)} />;
}
