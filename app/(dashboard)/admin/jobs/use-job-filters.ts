"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { z } from "zod/mini";
import { CAPTURE_STATUSES, type CaptureStatus } from "@/lib/captures/states";

export type JobFilters = { status?: CaptureStatus; providerConfigId?: string; checkId?: string; page: number; pageSize: number };

const PAGE_SIZE = 25;
const uuid = z.uuid();
/** The same test the server applies, so a typo is caught here instead of as a failed request. */
export const isUuid = (value: string) => uuid.safeParse(value).success;

const isStatus = (value: string | null): value is CaptureStatus => !!value && (CAPTURE_STATUSES as readonly string[]).includes(value);

/**
 * Filters live in the query string so a link can open the page pre-filtered
 * (/admin/jobs?checkId=…&status=failed). Values that would not pass the server's validation
 * are left out of the request; `rawCheckId` keeps what the URL said so the form can show why.
 */
export function useJobFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const status = params.get("status");
  const providerConfigId = params.get("providerConfigId") ?? "";
  const rawCheckId = params.get("checkId") ?? "";
  const page = Number(params.get("page"));
  const filters: JobFilters = {
    status: isStatus(status) ? status : undefined,
    providerConfigId: isUuid(providerConfigId) ? providerConfigId : undefined,
    checkId: isUuid(rawCheckId) ? rawCheckId : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pageSize: PAGE_SIZE,
  };

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
