// The Traffic page's query that is a server action, defined once for the browser's useQuery and
// the page's server component, which starts it with the page (lib/pages/prefetch.ts): the
// browser's actions run one at a time, and the charts' GETs are preloaded
// (app/(dashboard)/analytics/first-requests.ts).
import { siteReadinessAction } from "@/lib/actions/site-readiness";
import { unwrap } from "@/lib/browser/action-result";

/** The brand domains' robots.txt, llms.txt and most-cited pages as each AI crawler sees them. */
export const readinessQuery = { queryKey: ["traffic", "readiness"] as const, queryFn: async () => unwrap(await siteReadinessAction()) };
