// The dashboards' batch of first charts (app/api/analytics/batch/route.ts): shared by the server,
// which preloads it from a page's head (lib/pages/preload.tsx), and the browser, which reads its
// answers (lib/browser/chart-batch.ts). No "use client", no server-only: both import it.

import { CHART_PATH_PREFIX } from "@/lib/analytics/filter-query";

/** The batch's query parameter, once per chart address. */
export const BATCH_PARAM = "chart";
/** Most charts in one batch: a dashboard asks for at most seven first. */
export const BATCH_MAX_CHARTS = 12;

export const BATCH_PATH = `${CHART_PATH_PREFIX}batch`;

/** The batch's address for these chart addresses, in their order. */
export const batchPath = (addresses: string[]) => `${BATCH_PATH}?${new URLSearchParams(addresses.map((address) => [BATCH_PARAM, address]))}`;

/** One line of the batch's answer: a chart's address and what its own GET would have answered. */
export type BatchLine = { chart: string; status: number; body: unknown };

/**
 * Reads a batch's answer line by line as it arrives, handing each to `onLine` (the browser's
 * charts; the tests). Throws if the body breaks off, or ends inside a line.
 */
export async function readBatchLines(body: ReadableStream<Uint8Array>, onLine: (line: BatchLine) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffered += decoder.decode(chunk.value, { stream: true });
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      onLine(JSON.parse(buffered.slice(0, end)) as BatchLine);
      buffered = buffered.slice(end + 1);
    }
  }
  if (buffered + decoder.decode()) throw new Error("The batch ended inside a line.");
}
