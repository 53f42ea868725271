import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { crawlsOverTime } from "@/lib/analytics/traffic";

export const trafficCrawlsChart = defineChart({
  name: "traffic-crawls",
  description: "AI crawler requests to the brand's own domains per day (per week past 120 days), crawler and verification (verified, unverified, unchecked), from imported access logs",
  query: crawlsOverTime,
});
