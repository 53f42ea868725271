// The Sources page's query that is a server action, defined once for the browser's useQuery and
// the page's server component, which starts it with the page (lib/pages/prefetch.ts): the
// browser's actions run one at a time, and the charts' GETs are preloaded (first-requests.ts).
import { listSourceCategoriesAction } from "@/lib/actions/sources";
import { unwrap } from "@/lib/browser/action-result";

/** The workspace's own categories for cited domains (admins' overrides of the shipped list). */
export const sourceCategoriesQuery = { queryKey: ["source-categories"] as const, queryFn: async () => unwrap(await listSourceCategoriesAction()) };
