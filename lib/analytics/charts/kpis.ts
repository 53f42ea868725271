import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { overviewKpis } from "@/lib/analytics/kpis";

export const kpisChart = defineChart({
  name: "kpis",
  description:
    "Headline numbers: visibility, share of voice, average position and sentiment mix, each `{ current, previous, change, test }` for this period and the one of equal length before it; " +
    "`test` (null when a period has too few answers) is the alerts' test of the change at 95 % confidence: `method`, `p`, the change's interval `low`..`high`, `confidence` and `beyondNoise`",
  query: (r) => overviewKpis(r.filter),
});
