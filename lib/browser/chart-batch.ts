// The browser's side of the dashboards' batch (app/api/analytics/batch/route.ts). A dashboard's
// server component preloads one batch of its first charts from the page's head
// (lib/pages/preload.tsx); the first chart that asks starts reading it (the browser answers that
// fetch from the preload) and each chart then takes its own line as it arrives, instead of
// asking with a GET of its own. A chart the batch does not hold, or all of them if the batch
// fails, asks with its own GET as before.
import { BATCH_PARAM, BATCH_PATH, readBatchLines, type BatchLine } from "@/lib/analytics/batch";

/**
 * A performance mark per chart answered from the batch (its address as the detail), in the
 * browser's performance timeline beside the batch request: tests/e2e/dashboards.test.ts checks
 * that a page's charts took every chart its batch holds.
 */
export const BATCH_TAKEN_MARK = "beacon:chart-from-batch";

/** How long an untaken answer stays good: a chart asking later (a filter changed and changed back) asks afresh. */
const TAKE_WITHIN_MS = 10_000;

type Waiting = { answer: Promise<BatchLine | null>; settle: (line: BatchLine | null) => void; settledAt?: number; taken?: boolean };

/** This document's batch: chart address → its answer; read once per document load. */
let waiting: Map<string, Waiting> | undefined;

function readDocumentBatch(): Map<string, Waiting> {
  const charts = new Map<string, Waiting>();
  const link = document.querySelector<HTMLLinkElement>(`head link[rel="preload"][as="fetch"][href^="${BATCH_PATH}?"]`);
  if (!link) return charts;
  const href = link.getAttribute("href")!;
  for (const address of new URLSearchParams(href.slice(href.indexOf("?") + 1)).getAll(BATCH_PARAM)) {
    let settle!: (line: BatchLine | null) => void;
    const answer = new Promise<BatchLine | null>((resolve) => (settle = resolve));
    const entry: Waiting = { answer, settle: (line) => ((entry.settledAt ??= performance.now()), settle(line)) };
    charts.set(address, entry);
  }
  void readLines(href, charts);
  return charts;
}

async function readLines(href: string, charts: Map<string, Waiting>): Promise<void> {
  try {
    // The same address and mode as the preload: the browser answers from it, in flight or done.
    const response = await fetch(href);
    if (!response.ok || !response.body) return;
    await readBatchLines(response.body, (line) => charts.get(line.chart)?.settle(line));
  } catch {
    // No batch (the connection dropped, the page was left): the charts still waiting ask themselves.
  } finally {
    for (const entry of charts.values()) entry.settle(null);
  }
}

/**
 * The batch's answer for this chart address, once per document load, or null when the batch
 * does not hold it (or failed, or answered more than a few seconds ago): ask with the chart's own GET.
 */
export async function takeBatchedChart(address: string): Promise<BatchLine | null> {
  waiting ??= readDocumentBatch();
  const entry = waiting.get(address);
  if (!entry || entry.taken) return null;
  entry.taken = true;
  performance.mark(BATCH_TAKEN_MARK, { detail: address });
  if (entry.settledAt !== undefined && performance.now() - entry.settledAt > TAKE_WITHIN_MS) return null;
  return entry.answer;
}
