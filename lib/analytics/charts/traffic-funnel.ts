import "server-only";
import { z } from "zod";
import { defineChart } from "@/lib/analytics/chart";
import { pageParams } from "@/lib/analytics/charts/page-params";
import { FUNNEL_LISTS, pageFunnel } from "@/lib/analytics/traffic";

const params = pageParams.extend({
  list: z.enum(FUNNEL_LISTS, `list is one of ${FUNNEL_LISTS.join(", ")}`).default("all"),
});

export const trafficFunnelChart = defineChart({
  name: "traffic-funnel",
  description:
    "Per own page: crawls by AI crawlers (last day, by whom), answers citing it with the share's 95 % interval and visits sent by assistants (by assistant), paged; `list` keeps `crawled-not-cited`, `cited-not-crawled` (no crawl in the 30 days before the range's end) or `blocked-cited` (cited, and robots.txt blocks a search or user-fetch crawler from it per the last site readiness check; `blockedFor` names them; `robotsUnreachable`: robots.txt did not answer that check, which blocks every crawler)",
  params,
  query: (r, p) => pageFunnel(r, p.list, p.page, p.pageSize),
});
