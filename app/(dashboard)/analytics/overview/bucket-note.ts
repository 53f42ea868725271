import type { TrendUnit } from "@/lib/analytics/trend-buckets";

type Bucketed = { unit: TrendUnit; bucketRule: { medianN: number; minMedianN: number; chosenBy: "data" | "asked" } };

/** "Points are weeks, the finest unit whose points rest on at least 30 answers (median 84)." For the trend charts. */
export function bucketNote(v: Bucketed): string {
  const { medianN, minMedianN, chosenBy } = v.bucketRule;
  const median = `a median of ${Math.round(medianN)} answers`;
  if (chosenBy === "asked") return `Points are ${v.unit}s, as asked: each rests on ${median}.`;
  return medianN >= minMedianN
    ? `Points are ${v.unit}s, the finest unit whose points rest on at least ${minMedianN} answers (median ${Math.round(medianN)}).`
    : `Even by ${v.unit} the points rest on ${median} (fewer than ${minMedianN}): read the bands, not the wiggles.`;
}
