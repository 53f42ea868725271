import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { isCheckFinished } from "@/lib/captures/states";
import { setupConnections } from "@/lib/setup/suggestions";
import { setupProgress } from "@/lib/setup/progress";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";
import { ScheduleSuggestion } from "./schedule-suggestion";
import { SetupSteps } from "./setup-steps";
import { SetupWizard } from "./setup-wizard-lazy";

const primary = "inline-flex min-h-11 items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-500";
const secondary = "font-medium text-brand-700 hover:underline";

/**
 * The one way in for a workspace (issue 19, item 9): 1 your website, 2 review suggestions,
 * 3 first check, then a schedule. Without a brand it is the wizard (the manual route one link
 * under it); with one, the next thing to do. The Overview of a workspace without results and
 * /setup both render this.
 */
export async function SetupPath({ workspaceId, allowed, canManageSchedules }: { workspaceId: string; allowed: boolean; canManageSchedules: boolean }) {
  if (!allowed) {
    return (
      <Card className="p-5 text-sm text-slate-600">
        <p className="font-medium text-slate-900">This workspace has no results yet.</p>
        <p className="mt-1">Setting it up creates its brand and questions and starts a check, which viewers cannot do. Ask a member, admin or owner of the workspace to set it up.</p>
      </Card>
    );
  }
  const progress = await setupProgress(workspaceId);
  if (!progress.brands) {
    const [connections, providers] = await Promise.all([setupConnections(workspaceId), listProviderConfigs(workspaceId)]);
    return (
      <SetupWizard
        connections={connections}
        providers={providers.filter((p) => p.enabled && p.granted && p.configured).map((p) => ({ id: p.id, name: p.name, model: p.model }))}
      />
    );
  }

  const check = progress.latestCheck;
  const running = check && !isCheckFinished(check.status);
  return (
    <>
      <SetupSteps current={progress.hasResults ? 4 : 3} />
      <Card className="p-5">
        {progress.hasResults ? (
          <Next title="Set up: the first answers are in." text="The Overview shows how AI assistants talk about your brand.">
            <Link href="/" className={primary}>
              Open the Overview
            </Link>
          </Next>
        ) : running ? (
          <Next title="Your first check is running." text="Its answers fill the Overview as they come in; you can close this tab, it keeps running.">
            <Link href={`/checks/${check.id}`} className={primary}>
              Watch the check
            </Link>
          </Next>
        ) : !progress.prompts ? (
          <Next title="Before the first check: write the questions your buyers ask." text="A check asks every provider these questions and measures how often and how well your brand is named.">
            <Link href="/prompts" className={primary}>
              Write questions
            </Link>
          </Next>
        ) : (
          <Next
            title={check ? "Your last check brought no answers." : "Run the first check."}
            text="One check asks every chosen provider your questions; visibility, share of voice, positions, sentiment and sources follow from the answers."
          >
            <Link href="/checks/new" className={primary}>
              Run a check
            </Link>
            {check && (
              <Link href={`/checks/${check.id}`} className={secondary}>
                See what happened
              </Link>
            )}
          </Next>
        )}
      </Card>
      {progress.hasResults && !progress.hasSchedule && canManageSchedules && <ScheduleSuggestion className="mt-4" />}
    </>
  );
}

function Next({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <div className="min-w-0 max-w-2xl">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        <p className="mt-1 text-sm text-slate-600">{text}</p>
      </div>
      <div className="flex flex-wrap items-center gap-4">{children}</div>
    </div>
  );
}
