import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { positionDistribution } from "@/lib/analytics/trends";

export const positionsChart = defineChart({
  name: "positions",
  description: "Where the brand comes among the tracked entities (1, 2, 3, 4, 5+, not mentioned), each with n and interval",
  query: positionDistribution,
});
