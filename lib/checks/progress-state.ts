// The check page's progress as the browser holds it, and how a poll's answer changes it. Pure:
// the server (lib/checks/progress.ts) encodes with the types below, the page
// (app/(dashboard)/checks/use-checks-query.ts) applies answers with applyProgress, and the tests
// compare what the deltas built with a full read.
import { isCheckFinished, PENDING_OPERATION_STATUSES, type CaptureStatus, type CheckStatus } from "@/lib/captures/states";
import type { CheckCounts } from "@/lib/captures/check-counts";

// What bounds a poll's answer, whatever the check's size: at most GRID_PAGE_CELLS cells of about
// 100 bytes, GRID_PAGE_ROWS prompt texts of GRID_TEXT_CHARS, one error of GRID_ERROR_CHARS per
// distinct error. A typical first page of a 2,000-capture check is about 10 KB; the worst case
// (100 failed cells, each with a different long error, 25 long prompts, 20 providers) about 27 KB.

/** At most this many capture cells on one page of the grid, and so in one poll's answer. */
export const GRID_PAGE_CELLS = 100;
/** At most this many prompts (rows) on one page. */
export const GRID_PAGE_ROWS = 25;
/** Prompt texts longer than this are cut in the grid (the capture dialog has them whole). */
export const GRID_TEXT_CHARS = 200;
/** Errors longer than this are cut in the grid's cells (the capture dialog has them whole). */
export const GRID_ERROR_CHARS = 100;

/** Prompts per page: whole rows of providers × samples cells, at least one row. */
export const rowsPerPage = (providers: number, samples: number) =>
  Math.min(GRID_PAGE_ROWS, Math.max(1, Math.floor(GRID_PAGE_CELLS / Math.max(1, providers * samples))));

/** What changes while a check runs; sent with every answer. */
export type ProgressHeader = {
  id: string;
  status: CheckStatus;
  finishedAt: Date | null;
  cancelRequested: boolean;
  reservedMicros: number;
  chargedMicros: number;
  /** Cost of every attempt so far, accepted or not (estimates included). */
  spentMicros: number;
  counts: CheckCounts;
  /** The latest cancel or retry of the whole check someone asked for (lib/checks/operations.ts), while it runs and after. */
  operation: CheckOperationView | null;
};

/** A check's retry: captures queued again, and those left as they were, by reason. */
export type RetryResult = { retried: number; refused: { reason: string; captures: number }[] };
/** A check's cancel: waiting captures cancelled, running ones told to stop. */
export type CancelResult = { cancelledNow: number; aborting: number };

/** A cancel or retry of a whole check, run by a worker; `error` says why it did nothing. */
export type CheckOperationView = {
  id: string;
  kind: "cancel" | "retry";
  status: "queued" | "running" | "completed" | "failed";
  result: RetryResult | CancelResult | null;
  error: string | null;
};

/** A cancel or retry of the whole check asked for and not done yet (PENDING_OPERATION_STATUSES). */
export const isOperationPending = (operation: CheckOperationView | null | undefined) =>
  !!operation && (PENDING_OPERATION_STATUSES as readonly string[]).includes(operation.status);

/**
 * Whether the check page polls again after this answer: while the check runs, and while a cancel
 * or retry of it is still to run (a retry reopens a finished check). The server reads the header
 * so that an answer which stops the polls shows the check as it stays (lib/checks/progress.ts).
 */
export const pollsAgain = (check: Pick<ProgressHeader, "status" | "operation">) => !isCheckFinished(check.status) || isOperationPending(check.operation);

/** What does not change while a check runs (unless someone renames a provider or edits a prompt): sent when the browser's copy differs. */
export type ProgressGrid = {
  brand: string;
  startedBy: string;
  startedById: string | null;
  createdAt: Date;
  samples: number;
  /** 1-based page shown, of `pages`; `rowsPerPage` prompts per page, `prompts` of them on this one. */
  page: number;
  pages: number;
  rowsPerPage: number;
  totalPrompts: number;
  /** The rows of this page, oldest prompt first (texts cut at GRID_TEXT_CHARS). */
  prompts: string[];
  /**
   * The check's markets (its prompts' country and language) with their prompt counts, when it
   * spans more than one; `market` is the one shown (null: all), and `rowMarkets` each row's label.
   */
  markets: { key: string; label: string; prompts: number }[];
  market: string | null;
  rowMarkets: string[];
  /** The columns, by name. */
  providers: { name: string; model: string }[];
};

export type GridCell = {
  id: string;
  /** Index into the page's prompts and into providers. */
  row: number;
  col: number;
  sample: number;
  status: CaptureStatus;
  attemptCount: number;
  latencyMs: number | null;
  costMicros: number;
  lastError: string | null;
  waitingFor: "breaker" | "budget" | null;
  /**
   * From the capture's stored brand mention: whether the answer named the brand (null: no
   * analysis stored, e.g. not succeeded yet) and its 1-based position among the tracked names.
   */
  brandNamed: boolean | null;
  brandPosition: number | null;
};

/** A cell on the wire: a tuple, and its error as an index into the answer's `errors` (-1: none). */
export type WireCell = [id: string, row: number, col: number, sample: number, status: CaptureStatus, attemptCount: number, latencyMs: number | null, costMicros: number, error: number, waitingFor: GridCell["waitingFor"], brandNamed: boolean | null, brandPosition: number | null];

/** One poll's answer. */
export type ProgressAnswer = {
  /** Hand back as `version` on the next poll of the same page. */
  version: string;
  check: ProgressHeader;
  /** Absent when the version sent showed the browser already has this grid. */
  grid?: ProgressGrid;
  /** true: `cells` are all the page's cells; false: only those changed since the version sent. */
  full: boolean;
  cells: WireCell[];
  errors: string[];
};

export type ProgressState = { version: string; check: ProgressHeader; grid: ProgressGrid; cells: GridCell[] };

export function encodeCells(cells: GridCell[]): { cells: WireCell[]; errors: string[] } {
  const errors: string[] = [];
  const index = new Map<string, number>();
  const errorIndex = (error: string | null) => {
    if (error === null) return -1;
    if (!index.has(error)) index.set(error, errors.push(error) - 1);
    return index.get(error)!;
  };
  return {
    cells: cells.map((c) => [c.id, c.row, c.col, c.sample, c.status, c.attemptCount, c.latencyMs, c.costMicros, errorIndex(c.lastError), c.waitingFor, c.brandNamed, c.brandPosition]),
    errors,
  };
}

export function decodeCells(cells: WireCell[], errors: string[]): GridCell[] {
  return cells.map(([id, row, col, sample, status, attemptCount, latencyMs, costMicros, error, waitingFor, brandNamed, brandPosition]) => {
    const lastError = error === -1 ? null : errors[error];
    if (lastError === undefined) throw new Error(`Progress answer refers to error ${error} of ${errors.length}`);
    return { id, row, col, sample, status, attemptCount, latencyMs, costMicros, lastError, waitingFor, brandNamed, brandPosition };
  });
}

/** Grid order: row, then column, then sample. */
export const byPosition = (a: GridCell, b: GridCell) => a.row - b.row || a.col - b.col || a.sample - b.sample;

/**
 * The state after an answer to a poll that sent `previous.version` (or no version when
 * `previous` is undefined): the answer's cells replace those with the same id, or all of them
 * when the answer is full.
 */
export function applyProgress(previous: ProgressState | undefined, answer: ProgressAnswer): ProgressState {
  const grid = answer.grid ?? previous?.grid;
  if (!grid) throw new Error("The first progress answer of a page must carry its grid");
  const changed = decodeCells(answer.cells, answer.errors);
  let cells: GridCell[];
  if (answer.full || !previous) cells = changed;
  else {
    const byId = new Map(previous.cells.map((c) => [c.id, c]));
    for (const cell of changed) byId.set(cell.id, cell);
    cells = [...byId.values()];
  }
  return { version: answer.version, check: answer.check, grid, cells: cells.sort(byPosition) };
}
