"use client";
import { usePathname, useSearchParams } from "next/navigation";

/**
 * The Cited pages table's domain (`?domain=`), kept in the address beside the dashboards' filter
 * so a gap source's link to its pages can be shared and survives a reload. Setting it pushes a
 * history entry (Back returns to all pages); the App Router picks up pushState in
 * useSearchParams without rendering the page on the server again.
 */
export function useCitedDomain() {
  const params = useSearchParams();
  const pathname = usePathname();
  const domain = params.get("domain") || undefined;
  const hrefFor = (next: string | null) => {
    const query = new URLSearchParams(params);
    if (next) query.set("domain", next);
    else query.delete("domain");
    const search = query.toString();
    return search ? `${pathname}?${search}` : pathname;
  };
  const setDomain = (next: string | null) => window.history.pushState(null, "", hrefFor(next));
  return { domain, hrefFor, setDomain };
}
