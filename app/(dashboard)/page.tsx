import type { Metadata } from "next";
import Link from "next/link";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { analyticsOptions } from "@/lib/analytics/options";
import { canManageShareLinks, canRunSetup, canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { getBranding } from "@/lib/share-links/branding";
import { workspaceSummary } from "@/lib/workspaces/summary";
import { OverviewPage } from "./analytics/overview/overview-page";
import { SetupStart } from "./setup/setup-start";

export const metadata: Metadata = { title: "Overview" };

export default async function Page() {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  const canStart = canStartCheck(ctx);
  if (options.brands.length && options.hasResults) {
    const branding = await getBranding(ctx.workspace.id);
    const agency = { name: branding.agencyName, logoSrc: branding.logoType ? "/api/branding/logo" : null };
    return <OverviewPage title={ctx.workspace.name} options={options} canStart={canStart} canShare={canManageShareLinks(ctx)} agency={agency} />;
  }

  // No results yet: the getting-started checklist, ending with the first check.
  const summary = await workspaceSummary(ctx.workspace.id);
  const brand = options.brands[0]?.name;
  const steps = [
    { done: summary.brands > 0, label: "Describe your brand and its competitors", href: "/brands", count: `${summary.brands} brand(s), ${summary.competitors} competitor(s)` },
    { done: summary.prompts > 0, label: "Write the questions your buyers ask AI assistants", href: "/prompts", count: `${summary.prompts} prompt(s)` },
    { done: summary.members > 1, label: "Invite your team", href: "/members", count: `${summary.members} member(s)` },
  ];
  const ready = summary.brands > 0 && summary.prompts > 0;
  return (
    <>
      <PageHeader title={ctx.workspace.name} description="Beacon asks AI assistants your prompts and measures how they talk about your brand." />
      {/* A new workspace starts from its website: the first-run wizard, here rather than an empty page. */}
      {!options.brands.length && (
        <section aria-labelledby="setup-heading" className="mb-6">
          <h2 id="setup-heading" className="mb-2 text-base font-semibold text-slate-900">
            Set up from your website
          </h2>
          <SetupStart workspaceId={ctx.workspace.id} allowed={canRunSetup(ctx)} />
        </section>
      )}
      <Card className="divide-y divide-slate-100">
        {steps.map((step) => (
          <Link key={step.href} href={step.href} className="flex items-center gap-4 px-5 py-4 hover:bg-slate-50">
            <span
              aria-label={step.done ? "done" : "to do"}
              className={`flex size-6 items-center justify-center rounded-full text-xs ${step.done ? "bg-emerald-100 text-emerald-700" : "bg-slate-100 text-slate-500"}`}
            >
              {step.done ? "✓" : "•"}
            </span>
            <span className="flex-1 text-sm font-medium text-slate-900">{step.label}</span>
            <span className="text-xs text-slate-500">{step.count}</span>
          </Link>
        ))}
      </Card>
      <div className="mt-6">
        <EmptyState
          title={brand ? `Run a check to see how AI assistants talk about ${brand}` : "Add your brand to start measuring"}
          description={
            ready
              ? "Visibility, share of voice, positions, sentiment and sources appear here as soon as the first answers are in."
              : "Describe your brand and write a few prompts first; then one check asks every provider and fills this page."
          }
          action={
            ready && canStart ? (
              <Link href="/checks/new" className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-500">
                Run a check
              </Link>
            ) : undefined
          }
        />
      </div>
    </>
  );
}
