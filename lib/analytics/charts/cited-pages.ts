import "server-only";
import { z } from "zod";
import { defineChart } from "@/lib/analytics/chart";
import { pageParams } from "@/lib/analytics/charts/page-params";
import { citedPages } from "@/lib/analytics/sources";

const params = pageParams.extend({
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
