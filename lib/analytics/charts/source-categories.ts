import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { categoriesOverTime } from "@/lib/analytics/source-categories";

export const sourceCategoriesChart = defineChart({
  name: "source-categories",
  description: "Cited sources per category (own, competitor, review sites, forums, news, reference, social, vendor docs, other) per bucket",
  query: categoriesOverTime,
});
