import "server-only";
import { isOpen, reanalysisProgress } from "@/lib/jobs/reanalysis-progress";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// The progress records of the `reanalyze` job (lib/brands/reanalysis.ts writes them), read by the
// Brands page, the alerts' evaluation and the retry.

/** A brand's runs, latest first (the one that decides its state). */
export const LATEST_RUN_FIRST = [{ createdAt: "desc" }, { id: "desc" }] as const satisfies Prisma.AnalysisRunOrderByWithRelationInput[];

/**
 * The workspace's brands whose history is part analysed with older inputs, part with newer: their
 * deciding run (reanalysisByBrand) waiting or running ("running"), or failed after its job's last
 * attempt ("failed", until a retry or the next edit queues another). Their alert rules wait
 * (lib/alerts/evaluate.ts), and the dashboards and shared reports say so.
 */
export async function brandsMidReanalysis(workspaceId: string): Promise<Map<string, "running" | "failed">> {
  const runs = Object.entries(await reanalysisByBrand(workspaceId));
  const mid = new Map<string, "running" | "failed">();
  for (const [brandId, run] of runs) {
    if (isOpen(run)) mid.set(brandId, "running");
    else if (run.status === "failed") mid.set(brandId, "failed");
  }
  return mid;
}

const RUN_SHOWN = { brandId: true, status: true, total: true, done: true, error: true, startedAt: true, finishedAt: true } as const satisfies Prisma.AnalysisRunSelect;

/**
 * The run that decides each of the workspace's brands' state: its latest run waiting or running if
 * there is one (not only the latest run: a run queued again after a failed attempt is older than
 * one a later edit made, and an edit after that reuses it), else its latest run; with its share
 * done and time left (judged here, against the start the worker stamped: one clock on a host,
 * NTP's across hosts). The Brands page's progress, the dashboards' notice and brandsMidReanalysis
 * read it, so they agree.
 */
export async function reanalysisByBrand(workspaceId: string) {
  const [latest, open] = await Promise.all([
    db().analysisRun.findMany({ where: { workspaceId }, distinct: ["brandId"], orderBy: [{ brandId: "asc" }, ...LATEST_RUN_FIRST], select: RUN_SHOWN }),
    db().analysisRun.findMany({ where: { workspaceId, status: { in: ["queued", "running"] } }, distinct: ["brandId"], orderBy: [{ brandId: "asc" }, ...LATEST_RUN_FIRST], select: RUN_SHOWN }),
  ]);
  const now = Date.now();
  const deciding = new Map([...latest, ...open].map((r) => [r.brandId, r]));
  return Object.fromEntries([...deciding].map(([brandId, r]) => [brandId, { ...r, ...reanalysisProgress(r, now) }]));
}
