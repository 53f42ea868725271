import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { promptPerformance } from "@/lib/analytics/prompts";

export const promptsChart = defineChart({
  name: "prompts",
  description: "Per prompt: visibility, average position and the competitor it loses to most",
  query: (r) => promptPerformance(r.filter),
});
