// 6. Memory (issue 10, part 5), both sampled from /proc/<pid>/status every 250 ms while it happens:
//  - one worker process at concurrency 50 while 50 captures stream at once (the simulator spreads
//    each answer over its latency, 10 s here, and the worker saves the partial answer every
//    second), goal ≤ 200 MB;
//  - the production web server (`next start` on the existing build) while 50 pollers, each a
//    check page, call the progress server action over HTTP every second, on the same running
//    check. Without a build (npm run build) this half is skipped and says so.
import { cancelLeftover, setProviderCaps, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { startBeaconWorkers, stopAll } from "../lib/processes";
import { RssSampler, type RssSummary } from "../lib/rss";
import { sleep, summarize, waitFor, type Summary } from "../lib/stats";
import { actionId, callAction, hasBuild, signIn, startWebServer, stopWebServer } from "../lib/web-server";
import { db } from "@/lib/db/prisma";
import type { ProgressAnswer } from "@/lib/checks/progress-state";
import { DEMO_LOGIN } from "@/lib/seed/demo-content";

export const WORKER_RSS_GOAL_MB = 200;
const CONCURRENCY = 50;
const LATENCY_MS = 10_000;
const WINDOW_MS = 12_000;
const POLLERS = 50;

export type WorkerMemory = { concurrency: number; latencyMs: number; streamingAtOnce: number; rss: RssSummary };
export type ServerMemory =
  | { skipped: string }
  | { pollers: number; polls: number; errors: number; ms: Summary; bytes: { max: number; median: number }; rss: RssSummary };
export type MemoryResult = { worker: WorkerMemory; server: ServerMemory };

const running = async (checkId: string) => db().capture.count({ where: { checkId, status: "running" } });

type Poll = (version?: string) => Promise<{ result: ProgressAnswer; bytes: number }>;

/** 50 browser tabs on the check page, each polling with the version of its last answer, for WINDOW_MS. */
async function pollers(call: Poll, sampler: RssSampler): Promise<ServerMemory> {
  const times: number[] = [];
  const sizes: number[] = [];
  let errors = 0;
  const end = performance.now() + WINDOW_MS;
  const poller = async () => {
    await sleep(Math.random() * 1000);
    let version: string | undefined;
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const { result, bytes } = await call(version);
        times.push(performance.now() - t0);
        sizes.push(bytes);
        version = result.version;
      } catch {
        errors++;
      }
      await sleep(1000);
    }
  };
  await Promise.all(Array.from({ length: POLLERS }, poller));
  const rss = sampler.stop();
  const sorted = [...sizes].sort((a, b) => a - b);
  return { pollers: POLLERS, polls: times.length, errors, ms: summarize(times), bytes: { max: sorted.at(-1) ?? 0, median: sorted[sorted.length >> 1] ?? 0 }, rss };
}

/** `webServer: false` measures the worker alone (`npm run bench -- --memory`). */
export async function measureMemory(
  url: string,
  authSecret: string,
  fx: Fixtures,
  log: (line: string) => void,
  { webServer = true }: { webServer?: boolean } = {},
): Promise<MemoryResult> {
  await setProviderCaps(fx, CONCURRENCY);
  const web = webServer && hasBuild() ? await startWebServer(url, authSecret) : null;
  const workers = await startBeaconWorkers(url, authSecret, 1, { concurrency: CONCURRENCY, latencyMs: LATENCY_MS });
  try {
    const cookie = web ? await signIn(web, DEMO_LOGIN.email, DEMO_LOGIN.password) : "";
    const workerRss = new RssSampler(workers[0]!.pid);
    const webRss = web ? new RssSampler(web.child.pid) : null;
    workerRss.start();
    webRss?.start();
    // 40 prompts × 4 providers: 160 captures, more than three rounds of 50 streaming for 10 s.
    const { checkId } = await startCheck(fx, fx.promptIds.slice(0, 40));
    let streamingAtOnce = 0;
    const watch = setInterval(() => void running(checkId).then((n) => (streamingAtOnce = Math.max(streamingAtOnce, n))), 250);
    try {
      await waitFor(async () => (await running(checkId)) >= CONCURRENCY, 30_000);
      log(`memory: ${CONCURRENCY} captures streaming; ${web ? `${POLLERS} pollers on the web server` : webServer ? "no build, no web server" : "worker only"} for ${WINDOW_MS / 1000} s`);
      let server: ServerMemory;
      if (web && webRss) {
        const id = actionId("lib/actions/checks.ts", "checkProgressAction");
        server = await pollers((version) => callAction<ProgressAnswer>(web, cookie, id, `/checks/${checkId}`, { checkId, page: 1, version }), webRss);
      } else {
        await sleep(WINDOW_MS);
        server = { skipped: webServer ? "no production build: run npm run build first" : "worker only (--memory)" };
      }
      const worker = { concurrency: CONCURRENCY, latencyMs: LATENCY_MS, streamingAtOnce, rss: workerRss.stop() };
      if (!(await waitForCheck(checkId, 60_000))) await cancelLeftover(fx, checkId);
      return { worker, server };
    } finally {
      clearInterval(watch);
    }
  } finally {
    await stopAll(workers);
    if (web) await stopWebServer(web);
  }
}
