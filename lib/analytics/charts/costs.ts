import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { costsDashboard } from "@/lib/analytics/costs";

export const costsChart = defineChart({
  name: "costs",
  description: "Spend per provider and bucket, cost per accepted capture, retry waste, unknown outcomes, budget",
  query: (r) => costsDashboard(r),
});
