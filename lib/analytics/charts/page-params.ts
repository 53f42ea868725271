import "server-only";
import { z } from "zod";
import { num } from "@/lib/analytics/filter";

/** A paged table's page, from the query string. */
export const pageParams = z.object({
  page: z.coerce.number<string>("page must be a number").int("page must be a whole number").min(1, "page starts at 1").max(10_000, "page may be at most 10,000").default(1),
  pageSize: z.coerce.number<string>("pageSize must be a number").int("pageSize must be a whole number").min(1, "pageSize must be at least 1").max(100, "pageSize may be at most 100").default(20),
});

/**
 * A paged list's total: its page's rows carry it (a window count before the LIMIT), but a page
 * past the last (a link kept while the list shrank) has no row, so it is asked of the first page.
 */
export async function listTotal(rows: { total: number }[], page: number, firstPage: () => Promise<{ total: number }[]>): Promise<number> {
  return num((rows.length || page === 1 ? rows : await firstPage())[0]?.total);
}
