import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { canManageWorkspaceSettings } from "@/lib/auth/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { SettingsPage } from "./settings-page";

export const metadata: Metadata = { title: "Settings" };

export default async function Page() {
  const ctx = await requirePageContext();
  if (!canManageWorkspaceSettings(ctx)) redirect("/");
  return <SettingsPage />;
}
