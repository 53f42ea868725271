// The workspace's re-analyses (each brand's latest), defined once for the browser's useQuery and
// the pages' server components, which start it with the page (lib/pages/prefetch.ts): the Brands
// page shows each run's progress, the dashboards a notice while their brand's history is mixed.
import { reanalysisProgressAction } from "@/lib/actions/brands";
import { unwrap } from "@/lib/browser/action-result";

export const reanalysisQuery = { queryKey: ["brands", "reanalysis"] as const, queryFn: async () => unwrap(await reanalysisProgressAction()) };
export const reanalysisKey = reanalysisQuery.queryKey;
