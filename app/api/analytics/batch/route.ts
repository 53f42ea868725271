import { sharedFilters } from "@/lib/analytics/read-chart";
import { answerChart } from "@/lib/api/dashboard-chart";
import { apiError, jsonText } from "@/lib/api/handler";
import { BATCH_MAX_CHARTS, BATCH_PARAM, type BatchLine } from "@/lib/analytics/batch";
import { CHART_PATH_PREFIX } from "@/lib/analytics/filter-query";
import { getWorkspaceContext } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/**
 * GET /api/analytics/batch?chart=<address>&chart=<address>…, each address a chart GET of this
 * API (`/api/analytics/top-domains?brand=…&range=30`): a dashboard's first charts in one request.
 * The page preloads it from its head (lib/pages/preload.tsx), so the session is read once and the
 * filter resolved once for all of them, instead of once per chart, and a browser's six HTTP/1.1
 * connections stay free for the page's scripts. Answers NDJSON, one line per chart as each is
 * ready (a slow chart holds no other): {"chart": <address>, "status": 200, "body": <its data>},
 * or a refused chart's status and error body, exactly what its own GET would have answered.
 */
export async function GET(request: Request): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return apiError(401, "unauthorized", "Sign in to see analytics.");
  const addresses = new URL(request.url).searchParams.getAll(BATCH_PARAM);
  if (!addresses.length) return apiError(400, "validation_error", `${BATCH_PARAM}: name a chart's address, such as ${CHART_PATH_PREFIX}kpis?range=30`, BATCH_PARAM);
  if (addresses.length > BATCH_MAX_CHARTS) return apiError(400, "validation_error", `${BATCH_PARAM}: at most ${BATCH_MAX_CHARTS} charts per request`, BATCH_PARAM);
  if (new Set(addresses).size < addresses.length) return apiError(400, "validation_error", `${BATCH_PARAM}: each address once`, BATCH_PARAM);
  const charts: { address: string; name: string; params: URLSearchParams }[] = [];
  for (const address of addresses) {
    const at = address.indexOf("?");
    const pathname = at < 0 ? address : address.slice(0, at);
    if (!pathname.startsWith(CHART_PATH_PREFIX) || pathname.length === CHART_PATH_PREFIX.length || pathname.includes("/", CHART_PATH_PREFIX.length)) {
      return apiError(400, "validation_error", `${BATCH_PARAM}: "${address.slice(0, 80)}" is not a chart's address (${CHART_PATH_PREFIX}<chart>?<filter>)`, BATCH_PARAM);
    }
    charts.push({ address, name: pathname.slice(CHART_PATH_PREFIX.length), params: new URLSearchParams(at < 0 ? "" : address.slice(at + 1)) });
  }
  const filters = sharedFilters();
  const encoder = new TextEncoder();
  let left = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      void Promise.all(
        charts.map(async ({ address, name, params }) => {
          const answer = await answerChart(ctx, name, params, filters);
          if (!left) controller.enqueue(encoder.encode(`${jsonText({ chart: address, ...answer } satisfies BatchLine)}\n`));
        }),
      ).then(
        () => left || controller.close(),
        // answerChart answers every failure itself; should anything else throw, end the stream so
        // the browser's charts ask with their own GETs instead of waiting.
        (error: unknown) => left || controller.error(error),
      );
    },
    cancel() {
      // The browser left: the charts still finish (their queries are short), their lines are dropped.
      left = true;
    },
  });
  // text/: Next.js compresses text types and flushes the compression after each chunk the stream
  // gives it, so the lines still go one by one (a Sources page's ~26 KB of JSON, ~4 KB gzip'd);
  // application/x-ndjson it would send uncompressed. X-Accel-Buffering: nginx would hold the lines.
  return new Response(body, { headers: { "content-type": "text/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
