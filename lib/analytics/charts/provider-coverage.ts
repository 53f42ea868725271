import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { providerCoverage } from "@/lib/analytics/provider-coverage";

export const providerCoverageChart = defineChart({
  name: "provider-coverage",
  description: "Answers per provider of the workspace in the period (brand, tags and markets applied, the provider filter not): which providers have data",
  query: providerCoverage,
});
