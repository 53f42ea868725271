import "server-only";
import { z } from "zod";
import { defineChart } from "@/lib/analytics/chart";
import { gapSources } from "@/lib/analytics/source-categories";

/** The brand's and competitors' own sites are left out unless asked for (the page's toggle). */
const params = z.object({
  includeEntityDomains: z
    .enum(["true", "false"], "includeEntityDomains is true or false")
    .default("false")
    .transform((v) => v === "true"),
});

export const gapSourcesChart = defineChart({
  name: "gap-sources",
  description:
    "Domains cited in answers that name a competitor and leave the brand out, ranked by those answers, with the competitors named. The brand's and the competitors' own sites (their registrable domains, subdomains included) are left out unless `includeEntityDomains=true`",
  params,
  query: (r, p) => gapSources(r, p),
});
