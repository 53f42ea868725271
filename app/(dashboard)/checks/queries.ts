// The Checks page's list query (key and server action), outside the client modules: the page's
// server component starts its first page before the browser asks (lib/pages/prefetch.ts).
import { listChecksAction } from "@/lib/actions/checks";
import { unwrap } from "@/lib/browser/action-result";
import type { CheckStatus } from "@/lib/captures/states";

export const checksKey = ["checks"] as const;

export type CheckFilters = { status?: CheckStatus; brandId?: string; page: number; pageSize: number };

/** What the page shows first: the newest checks, any status and brand. */
export const FIRST_CHECKS: CheckFilters = { page: 1, pageSize: 20 };

/** A page of the workspace's checks for the filters. */
export const checksQuery = (filters: CheckFilters) => ({ queryKey: [...checksKey, filters] as const, queryFn: async () => unwrap(await listChecksAction(filters)) });
