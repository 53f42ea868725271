// The workspace's re-analyses (each brand's deciding run: reanalysisByBrand): the Brands page shows each run's progress,
// the dashboards a notice while their brand's history is mixed. The pages' server components read
// it as the action does (lib/jobs/analysis-runs.ts reanalysisByBrand) and hand the answer to
// the browser's cache with the page (lib/pages/prefetch.ts, `answered`); the browser asks again
// through the action while a run is open.
import { reanalysisProgressAction } from "@/lib/actions/brands";
import { unwrap } from "@/lib/browser/action-result";

export const reanalysisQuery = { queryKey: ["brands", "reanalysis"] as const, queryFn: async () => unwrap(await reanalysisProgressAction()) };
export const reanalysisKey = reanalysisQuery.queryKey;
