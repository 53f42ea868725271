// The Checks page's list query and the check page's progress query (keys and server actions),
// outside the client modules: each page's server component starts its first page before the
// browser asks (lib/pages/prefetch.ts).
import { checkProgressAction, listChecksAction } from "@/lib/actions/checks";
import { unwrap } from "@/lib/browser/action-result";
import type { CheckStatus } from "@/lib/captures/states";
import { applyProgress, type ProgressState } from "@/lib/checks/progress-state";

export const checksKey = ["checks"] as const;

export type CheckFilters = { status?: CheckStatus; brandId?: string; page: number; pageSize: number };

/** What the page shows first: the newest checks, any status and brand. */
export const FIRST_CHECKS: CheckFilters = { page: 1, pageSize: 20 };

/** A page of the workspace's checks for the filters. */
export const checksQuery = (filters: CheckFilters) => ({ queryKey: [...checksKey, filters] as const, queryFn: async () => unwrap(await listChecksAction(filters)) });

export const checkKey = (id: string) => ["check", id] as const;

/** A page of a check's grid, for a market or all of them (null). */
export const checkPageKey = (id: string, page: number, market: string | null) => [...checkKey(id), page, market] as const;

/**
 * A page of the check's grid read whole (no version held): what the check page shows first. Its
 * polls (useCheckQuery) then ask for what changed since the version this answer carries.
 */
export const checkProgressQuery = (checkId: string, page: number, market: string | null) => ({
  queryKey: checkPageKey(checkId, page, market),
  queryFn: async (): Promise<ProgressState> => applyProgress(undefined, unwrap(await checkProgressAction({ checkId, page, market }))),
});
