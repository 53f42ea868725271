import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { overviewKpis } from "@/lib/analytics/kpis";

export const kpisChart = defineChart({
  name: "kpis",
  description:
    "Headline numbers: visibility, share of voice, average position and sentiment mix, each `{ current, previous, change, test, compared }`: `current` and `previous` over every answer of this period and the one of equal length before it; " +
    "`change` and `test` like with like, on the prompts answered in both (`compared` has both periods on those; `comparedPrompts` counts them, `promptsInOnePeriod` the prompts left out), as the metric_change alert compares; " +
    "`test` (null when a period has too few answers) is the alerts' test of the change at 95 % confidence: `method`, `p`, the change's interval `low`..`high`, `confidence` and `beyondNoise`",
  query: (r) => overviewKpis(r.filter),
});
