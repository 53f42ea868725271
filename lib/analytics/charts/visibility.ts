import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { trendParams } from "@/lib/analytics/trend-buckets";
import { visibilityOverTime } from "@/lib/analytics/visibility-trend";

export const visibilityChart = defineChart({
  name: "visibility",
  description:
    "Visibility per provider and bucket, each point `{ value, n, low, high, mentioned }`. `unit` (day, week from Monday, month) is the finest whose points rest on a median of 30 answers (`bucketRule`: `medianN`, `minMedianN`, `chosenBy`), days only up to 120 days and months from 90; `bucket=day|week|month` asks for one",
  params: trendParams,
  query: visibilityOverTime,
});
