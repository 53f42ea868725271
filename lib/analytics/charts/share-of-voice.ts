import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { trendParams } from "@/lib/analytics/trend-buckets";
import { shareOfVoiceOverTime } from "@/lib/analytics/trends";

export const shareOfVoiceChart = defineChart({
  name: "share-of-voice",
  description:
    "Share of voice of the brand and each competitor per bucket: `shares[entity]` is `{ value, n, low, high }` (95 % interval, the answer as sampling unit), `mentions` the counts, `answers` each point's n. `unit` and `bucketRule` as for visibility (`bucket=day|week|month` asks for one). `period[entity]`: the share over the whole range and the previous one, and the change with its `test` (`p`, `beyondNoise`) on the prompts answered in both (`compared`), as the kpis chart's",
  params: trendParams,
  query: shareOfVoiceOverTime,
});
