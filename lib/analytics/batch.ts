// The dashboards' batch of first charts (app/api/analytics/batch/route.ts): shared by the server,
// which preloads it from a page's head (lib/pages/preload.tsx), and the browser, which reads its
// answers (lib/browser/chart-batch.ts). No "use client", no server-only: both import it.

/** Every chart GET's address starts so (chartPath in lib/analytics/filter-query.ts). */
export const CHART_PATH_PREFIX = "/api/analytics/";
/** The batch's query parameter, once per chart address. */
export const BATCH_PARAM = "chart";
/** Most charts in one batch: a dashboard asks for at most seven first. */
export const BATCH_MAX_CHARTS = 12;

export const BATCH_PATH = `${CHART_PATH_PREFIX}batch`;

/** The batch's address for these chart addresses, in their order. */
export const batchPath = (addresses: string[]) => `${BATCH_PATH}?${new URLSearchParams(addresses.map((address) => [BATCH_PARAM, address]))}`;

/** One line of the batch's answer: a chart's address and what its own GET would have answered. */
export type BatchLine = { chart: string; status: number; body: unknown };
