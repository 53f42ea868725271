import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { overviewKpis } from "@/lib/analytics/kpis";

export const kpisChart = defineChart({
  name: "kpis",
  description: "Headline numbers: visibility, share of voice, average position and sentiment mix, each `{ current, previous, change }` for this period and the one of equal length before it",
  query: (r) => overviewKpis(r.filter),
});
