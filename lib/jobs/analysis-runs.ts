import "server-only";
import { reanalysisProgress } from "@/lib/jobs/reanalysis-progress";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// The progress records of the `reanalyze` job (lib/brands/reanalysis.ts writes them), read by the
// Brands page, the alerts' evaluation and the retry.

/** A brand's runs, latest first (the one that decides its state). */
export const LATEST_RUN_FIRST = [{ createdAt: "desc" }, { id: "desc" }] as const satisfies Prisma.AnalysisRunOrderByWithRelationInput[];

/**
 * The workspace's brands whose history is part analysed with older inputs, part with newer: any
 * run waiting or running ("running"; not only the latest: a run queued again after a failed
 * attempt is older than one a later edit made, and an edit after that reuses it), or the latest
 * run failed after its job's last attempt ("failed", until a retry or the next edit queues
 * another). Their alert rules wait (lib/alerts/evaluate.ts).
 */
export async function brandsMidReanalysis(workspaceId: string): Promise<Map<string, "running" | "failed">> {
  const open = await db().analysisRun.findMany({ where: { workspaceId, status: { in: ["queued", "running"] } }, select: { brandId: true } });
  const failed = Object.entries(await latestReanalysisByBrand(workspaceId)).filter(([, run]) => run.status === "failed");
  return new Map([...failed.map(([brandId]) => [brandId, "failed"] as const), ...open.map((run) => [run.brandId, "running"] as const)]);
}

/**
 * The latest re-analysis of each of the workspace's brands, with its share done and time left
 * (judged here, against the start the worker stamped: one clock on a host, NTP's across hosts),
 * for the Brands page's progress and the dashboards' notice.
 */
export async function latestReanalysisByBrand(workspaceId: string) {
  const runs = await db().analysisRun.findMany({
    where: { workspaceId },
    distinct: ["brandId"],
    orderBy: [{ brandId: "asc" }, ...LATEST_RUN_FIRST],
    select: { brandId: true, status: true, total: true, done: true, error: true, startedAt: true, finishedAt: true },
  });
  const now = Date.now();
  return Object.fromEntries(runs.map((r) => [r.brandId, { ...r, ...reanalysisProgress(r, now) }]));
}
