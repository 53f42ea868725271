import type { Metadata } from "next";
import { canManageAlerts } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { AdminsOnly } from "../admins-only";
import { ChannelsPage } from "./channels-page";

export const metadata: Metadata = { title: "Alert channels" };

export default async function Page() {
  const ctx = await requirePageContext();
  return canManageAlerts(ctx) ? <ChannelsPage /> : <AdminsOnly title="Alert channels" what="alert channels" />;
}
