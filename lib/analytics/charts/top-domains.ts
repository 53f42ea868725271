import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { topDomainsOverTime } from "@/lib/analytics/sources";

export const topDomainsChart = defineChart({
  name: "top-domains",
  description: "The 8 most cited domains and their citations per bucket",
  query: (r) => topDomainsOverTime(r.filter),
});
