import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";
import { requirePageContext } from "@/lib/auth/session";
import { workspaceSummary } from "@/lib/workspaces/summary";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const ctx = await requirePageContext();
  const summary = await workspaceSummary(ctx.workspace.id);
  const steps = [
    { done: summary.brands > 0, label: "Describe your brand and its competitors", href: "/brands", count: `${summary.brands} brand(s), ${summary.competitors} competitor(s)` },
    { done: summary.prompts > 0, label: "Write the questions your buyers ask AI assistants", href: "/prompts", count: `${summary.prompts} prompt(s)` },
    { done: summary.members > 1, label: "Invite your team", href: "/members", count: `${summary.members} member(s)` },
  ];
  return (
    <>
      <PageHeader title={ctx.workspace.name} description="Beacon asks AI assistants your prompts and measures how they talk about your brand." />
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
    </>
  );
}
