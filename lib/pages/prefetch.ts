import "server-only";
import { dehydrate, QueryClient, type DehydratedState, type QueryKey } from "@tanstack/react-query";

/** A query a page's client components make on their first render: their key, and the server's way to answer it. */
export type PrefetchedQuery = { queryKey: QueryKey; queryFn: () => Promise<unknown> };

/**
 * A page's first queries, started by its server component and handed to the browser's query cache
 * while they still run (<PrefetchedQueries state={prefetch(…)}>): TanStack Query dehydrates a
 * pending query with its promise and React streams the answer inside the page's own response, so
 * the data is read while the browser loads the page's scripts, under the keys the components'
 * useQuery use. For pages whose queries are server actions (Checks, a check, Jobs): Next.js runs a
 * browser's actions one at a time, so after hydration the Jobs page's four went one after
 * another. A query is defined once, key and function, in a module both sides import (a server
 * action is a plain call on the server), so the answer has the browser's shape. A key that does
 * not match is harmless (the browser asks, as before; tests/e2e/prefetch.test.ts fails a page that
 * still asks); a query that fails here is asked again by the browser, whose request shows the
 * error (TanStack Query redacts a server's errors). Not for the chart pages' GETs, which their
 * pages preload instead (lib/pages/preload.tsx; docs/benchmarks.md, "First queries with the page").
 */
export function prefetch(queries: PrefetchedQuery[], answered: AnsweredQuery[] = []): DehydratedState {
  const client = new QueryClient();
  for (const { queryKey, data } of answered) client.setQueryData(queryKey, data);
  for (const { queryKey, queryFn } of queries) void client.prefetchQuery({ queryKey, queryFn });
  return dehydrate(client, { shouldDehydrateQuery: () => true });
}

/**
 * A query's answer the server component has already read (a cheap read the page awaits with its
 * others), handed over whole: the page renders with it on both sides and nothing streams after
 * the page for it, and the page's content never waits for it (a streamed query's answer comes
 * when its server action, session checks included, has run beside the charts' reads).
 */
export type AnsweredQuery = { queryKey: QueryKey; data: unknown };

/** A page's search params as Next.js hands them to its server component. */
export type PageSearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A page's search params as Next.js hands them to a server component, as the browser's URLSearchParams. */
export function toSearchParams(params: Record<string, string | string[] | undefined>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value ?? []].flat()) search.append(name, v);
  return search;
}
