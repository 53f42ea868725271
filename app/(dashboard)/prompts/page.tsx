import type { Metadata } from "next";
import { canEditTrackingSetup } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { PromptsPage } from "./prompts-page";

export const metadata: Metadata = { title: "Prompts" };

export default async function Page() {
  const ctx = await requirePageContext();
  return <PromptsPage canEdit={canEditTrackingSetup(ctx)} />;
}
