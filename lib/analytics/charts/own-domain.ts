import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { ownDomainRate } from "@/lib/analytics/sources";

export const ownDomainChart = defineChart({
  name: "own-domain",
  description: "Answers citing one of the brand's own domains out of all answers in scope",
  query: (r) => ownDomainRate(r.filter),
});
