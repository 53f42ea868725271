"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { jobFiltersFrom, type JobFilters } from "./queries";

/**
 * Filters live in the query string so a link can open the page pre-filtered
 * (/admin/jobs?checkId=…&status=failed). Values that would not pass the server's validation
 * are left out of the request; `rawCheckId` keeps what the URL said so the form can show why.
 */
export function useJobFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const rawCheckId = params.get("checkId") ?? "";
  const filters = jobFiltersFrom(params);

  /** Applies a change; any filter change starts again at page 1. */
  const update = (change: Partial<Omit<JobFilters, "pageSize">>) => {
    const next = { ...filters, page: 1, ...change };
    const query = new URLSearchParams();
    if (next.status) query.set("status", next.status);
    if (next.providerConfigId) query.set("providerConfigId", next.providerConfigId);
    if (next.checkId) query.set("checkId", next.checkId);
    if (next.page > 1) query.set("page", String(next.page));
    const search = query.toString();
    router.push(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };

  return { filters, rawCheckId, update };
}
