import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { visibilityOverTime } from "@/lib/analytics/trends";

export const visibilityChart = defineChart({
  name: "visibility",
  description: "Visibility per provider and per day (per ISO week past 120 days)",
  query: visibilityOverTime,
});
