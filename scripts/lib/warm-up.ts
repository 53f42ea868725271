// `npm run dev` compiles each route on its first request; on a loaded 2-core machine the sign-in
// page and the dashboard took minutes, after the banner had said "ready", so a newcomer thought
// it hung. The launcher asks for them itself before it says ready. Redirects are not followed
// (the signed-out dashboard answers with one, after compiling): an answer of any status means
// the route is compiled.

/** The routes a newcomer opens first: the sign-in page, then the Overview behind it. */
export const FIRST_ROUTES = ["/login", "/"] as const;

export type WarmUpResult = { path: string; ms: number; status: number | null }[];

/**
 * Requests each path in turn (one at a time: concurrent compiles only share the same two cores),
 * each given at most `timeoutMs`; never throws: a route that fails to answer is reported with
 * status null, and the launcher says ready anyway.
 */
export async function warmUp(base: string, paths: readonly string[], timeoutMs: number): Promise<WarmUpResult> {
  const result: WarmUpResult = [];
  for (const path of paths) {
    const started = performance.now();
    let status: number | null = null;
    try {
      const response = await fetch(new URL(path, base), { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      // timed out or refused: reported below
    }
    result.push({ path, ms: Math.round(performance.now() - started), status });
  }
  return result;
}

/** One line for the launcher's log: what was compiled, and how long it took. */
export function describeWarmUp(result: WarmUpResult): string {
  return result.map(({ path, ms, status }) => `${path} ${status === null ? "did not answer" : "ready"} in ${(ms / 1000).toFixed(1)} s`).join(", ");
}
