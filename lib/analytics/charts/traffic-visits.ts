import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { visitsOverTime } from "@/lib/analytics/traffic";

export const trafficVisitsChart = defineChart({
  name: "traffic-visits",
  description: "Visits that AI assistants (ChatGPT, Perplexity, Gemini, ...) sent to the brand's own domains per day (per week past 120 days) and assistant, recorded by the visits script",
  query: visitsOverTime,
});
