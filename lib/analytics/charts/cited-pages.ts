import "server-only";
import { z } from "zod";
import { defineChart } from "@/lib/analytics/chart";
import { citedPages } from "@/lib/analytics/sources";

/** The table's page, from the query string. */
const params = z.object({
  page: z.coerce.number<string>("page must be a number").int("page must be a whole number").min(1, "page starts at 1").max(10_000, "page may be at most 10,000").default(1),
  pageSize: z.coerce.number<string>("pageSize must be a number").int("pageSize must be a whole number").min(1, "pageSize must be at least 1").max(100, "pageSize may be at most 100").default(20),
  // A cited domain as the citations store it (lower case, no scheme or path): the Sources page's
  // gap sources link to their pages with it.
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253, "domain may be at most 253 characters")
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, "domain is a host name such as example.com")
    .optional(),
});

export const citedPagesChart = defineChart({
  name: "cited-pages",
  description: "Cited pages, most cited first, paged (`page`, `pageSize` up to 100); `domain` keeps one cited domain's pages",
  params,
  query: (r, p) => citedPages(r.filter, p.page, p.pageSize, p.domain),
});
