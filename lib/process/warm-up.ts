// A server's first requests pay for what it has not done yet. `npm run dev` compiles each route on
// its first request: on a loaded 2-core machine the sign-in page and the dashboard took minutes,
// after the banner had said "ready", so a newcomer thought it hung; the launcher asks for them
// itself before it says ready. A production server (`next start`) logs "Ready" before it has
// loaded its configuration and request handlers, and its first page render loads and compiles the
// rendering runtime: the first visit after a start took 0.9–2.8 s where the next took 0.1–0.2
// (docs/benchmarks.md); instrumentation.ts has it render the sign-in page and load the dashboards
// once for itself as soon as it listens (warmUpSelf). Redirects are not followed (the signed-out dashboard answers
// with one, after compiling): an answer of any status means the route is ready.

/** The routes a newcomer opens first: the sign-in page, then the Overview behind it. */
export const FIRST_ROUTES = ["/login", "/"] as const;

/**
 * What a production server asks of itself after a start: the sign-in page (the rendering runtime),
 * then, signed out, the dashboards (each loads its modules before it redirects to the sign-in page)
 * and their charts' batch (its modules, before it answers 401). Measured on the 1M-capture bench
 * database (docs/benchmarks.md), the first visit of a dashboard after a start then waits less for
 * its own first request.
 */
export const SELF_WARM_ROUTES = ["/login", "/", "/analytics/sources", "/analytics/costs", "/traffic", "/api/analytics/batch"] as const;

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

/**
 * A production server's own warm-up: once it listens (Next.js sets PORT then), it requests
 * SELF_WARM_ROUTES once each, in the background, so the first visitor after a start does not
 * wait for the rendering runtime and the dashboards' modules to load. Never throws; its timer
 * does not keep the process alive.
 */
export function warmUpSelf(): void {
  const started = Date.now();
  const attempt = () => {
    const port = process.env.PORT;
    // `register()` runs while the server starts; PORT is set when it listens (a few ms).
    if (!port) {
      if (Date.now() - started < 30_000) setTimeout(attempt, 50).unref();
      return;
    }
    void warmUp(`http://localhost:${port}`, SELF_WARM_ROUTES, 60_000);
  };
  setTimeout(attempt, 0).unref();
}
