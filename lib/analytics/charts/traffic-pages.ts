import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { pageParams } from "@/lib/analytics/charts/page-params";
import { topCrawledPages } from "@/lib/analytics/traffic";

export const trafficPagesChart = defineChart({
  name: "traffic-pages",
  description: "The brand's own pages most requested by AI crawlers, paged (`page`, `pageSize` up to 100)",
  params: pageParams,
  query: (r, p) => topCrawledPages(r, p.page, p.pageSize),
});
