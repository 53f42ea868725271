import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { ownPagesCited } from "@/lib/analytics/source-categories";

export const ownPagesChart = defineChart({
  name: "own-pages",
  description: "The brand's own pages cited most",
  query: ownPagesCited,
});
