// The Jobs page's queries (key and server action), outside the client modules: the page's server
// component starts their first answers before the browser asks (lib/pages/prefetch.ts), under the
// same keys and through the same functions (a server action is a plain call on the server).
import { z } from "zod/mini";
import { adminCapturesAction, adminOverviewAction, breakersAction } from "@/lib/actions/admin";
import { listProvidersAction } from "@/lib/actions/settings";
import { unwrap } from "@/lib/browser/action-result";
import { CAPTURE_STATUSES, type CaptureStatus } from "@/lib/captures/states";

export type JobFilters = { status?: CaptureStatus; providerConfigId?: string; checkId?: string; page: number; pageSize: number };

const PAGE_SIZE = 25;
const uuid = z.uuid();
/** The same test the server applies, so a typo is caught here instead of as a failed request. */
export const isUuid = (value: string) => uuid.safeParse(value).success;

const isStatus = (value: string | null): value is CaptureStatus => !!value && (CAPTURE_STATUSES as readonly string[]).includes(value);

/** The filters of the page's address; values that would not pass the server's validation are left out. */
export function jobFiltersFrom(params: URLSearchParams): JobFilters {
  const status = params.get("status");
  const providerConfigId = params.get("providerConfigId") ?? "";
  const checkId = params.get("checkId") ?? "";
  const page = Number(params.get("page"));
  return {
    status: isStatus(status) ? status : undefined,
    providerConfigId: isUuid(providerConfigId) ? providerConfigId : undefined,
    checkId: isUuid(checkId) ? checkId : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: PAGE_SIZE,
  };
}

export const jobsKey = ["admin-jobs"] as const;

/** Queue depth and worker heartbeats. */
export const jobsOverviewQuery = { queryKey: [...jobsKey, "overview"] as const, queryFn: async () => unwrap(await adminOverviewAction()) };

/** A page of the workspace's captures for the filters. */
export const adminCapturesQuery = (filters: JobFilters) => ({
  queryKey: [...jobsKey, "captures", filters] as const,
  queryFn: async () => unwrap(await adminCapturesAction(filters)),
});

/** The breakers of the connections and models the workspace's providers use. */
export const breakersQuery = { queryKey: ["breakers"] as const, queryFn: async () => unwrap(await breakersAction()) };

/** The workspace's providers (the filter's choices). */
export const providersQuery = { queryKey: ["providers"] as const, queryFn: async () => unwrap(await listProvidersAction()) };
