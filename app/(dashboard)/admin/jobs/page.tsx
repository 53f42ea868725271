import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { canManageWorkspaceSettings, canRetryCapture } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { JobsPage } from "./jobs-page";

export const metadata: Metadata = { title: "Jobs" };

export default async function Page() {
  const ctx = await requirePageContext();
  if (!canManageWorkspaceSettings(ctx)) redirect("/");
  return <JobsPage me={{ userId: ctx.userId, role: ctx.role }} canRetry={canRetryCapture(ctx)} />;
}
