import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { canManageSchedules, canRetryCapture } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { prefetch } from "@/lib/pages/prefetch";
import { hasSchedule, isSetupCheck } from "@/lib/setup/progress";
import { checkProgressQuery } from "../queries";
import { CheckPage } from "./check-page";

export const metadata: Metadata = { title: "Check" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePageContext();
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  // The grid's first page starts here, streamed in the page's response, not asked after hydration.
  const first = prefetch([checkProgressQuery(id, 1, null)]);
  // The wizard's first check, in a workspace without a schedule: once it finishes, suggest one.
  const suggestSchedule = canManageSchedules(ctx) && (await isSetupCheck(ctx.workspace.id, id)) && !(await hasSchedule(ctx.workspace.id));
  return (
    <PrefetchedQueries state={first}>
      <CheckPage checkId={id} me={{ userId: ctx.userId, role: ctx.role }} canRetry={canRetryCapture(ctx)} suggestSchedule={suggestSchedule} />
    </PrefetchedQueries>
  );
}
