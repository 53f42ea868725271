import type { Metadata } from "next";
import { canManageAlerts } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { AdminsOnly } from "../admins-only";
import { DeliveriesPage } from "./deliveries-page";

export const metadata: Metadata = { title: "Delivery log" };

export default async function Page() {
  const ctx = await requirePageContext();
  return canManageAlerts(ctx) ? <DeliveriesPage /> : <AdminsOnly title="Delivery log" what="the delivery log" />;
}
