import "server-only";
import { db } from "@/lib/db/prisma";

// Where a workspace is on its way to measuring (issue 19, item 9): the setup path shows one
// next step from this, and a first check, once done, leads on to a schedule.

export type SetupProgress = {
  brands: number;
  prompts: number;
  /** The latest check, to watch or to follow. */
  latestCheck: { id: string; status: string } | null;
  /** Whether any answer is in (a succeeded capture): the Overview has numbers. */
  hasResults: boolean;
  hasSchedule: boolean;
};

export async function setupProgress(workspaceId: string): Promise<SetupProgress> {
  const [brands, prompts, latestCheck, answered, scheduled] = await Promise.all([
    db().brand.count({ where: { workspaceId } }),
    db().prompt.count({ where: { workspaceId, deletedAt: null } }),
    db().check.findFirst({ where: { workspaceId }, orderBy: { createdAt: "desc" }, select: { id: true, status: true } }),
    db().capture.findFirst({ where: { workspaceId, status: "succeeded" }, select: { id: true } }),
    hasSchedule(workspaceId),
  ]);
  return { brands, prompts, latestCheck, hasResults: answered !== null, hasSchedule: scheduled };
}

export async function hasSchedule(workspaceId: string): Promise<boolean> {
  return (await db().schedule.count({ where: { workspaceId } })) > 0;
}

/** Whether a check is the one a first run's accept started (the wizard's step 3). */
export async function isSetupCheck(workspaceId: string, checkId: string): Promise<boolean> {
  return (await db().setupSuggestion.count({ where: { workspaceId, checkId } })) > 0;
}
