import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { gapSources } from "@/lib/analytics/source-categories";

export const gapSourcesChart = defineChart({
  name: "gap-sources",
  description: "Domains cited in answers that name a competitor and leave the brand out, ranked by those answers, with the competitors named",
  query: gapSources,
});
