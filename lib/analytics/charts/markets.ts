import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { marketComparison } from "@/lib/analytics/market-comparison";

export const marketsChart = defineChart({
  name: "markets",
  description: "The headline numbers per market (prompt country and language), largest first",
  query: (r) => marketComparison(r.filter),
});
