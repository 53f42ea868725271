import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { canManageWorkspaceSettings, canRetryCapture } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { prefetch, toSearchParams, type PageSearchParams } from "@/lib/pages/prefetch";
import { JobsPage } from "./jobs-page";
import { adminCapturesQuery, breakersQuery, jobFiltersFrom, jobsOverviewQuery, providersQuery } from "./queries";

export const metadata: Metadata = { title: "Jobs" };

export default async function Page({ searchParams }: { searchParams: PageSearchParams }) {
  const ctx = await requirePageContext();
  if (!canManageWorkspaceSettings(ctx)) redirect("/");
  // The page's four queries start here, not one after another from the browser (server actions run one at a time).
  const first = prefetch([jobsOverviewQuery, adminCapturesQuery(jobFiltersFrom(toSearchParams(await searchParams))), breakersQuery, providersQuery]);
  return (
    <PrefetchedQueries state={first}>
      <JobsPage me={{ userId: ctx.userId, role: ctx.role }} canRetry={canRetryCapture(ctx)} />
    </PrefetchedQueries>
  );
}
