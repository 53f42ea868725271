// The charts' answers as the browser receives them from GET /api/analytics/<chart>: JSON, so a
// Date arrives as its ISO string and a bigint as a number (lib/api/handler.ts `json`; amounts are
// micro-dollars, far below 2^53). Types only: the server's query results define them.
import type { ChartName, ChartResult } from "@/lib/analytics/charts";

export type Jsonified<T> = T extends Date
  ? string
  : T extends bigint
    ? number
    : T extends readonly (infer U)[]
      ? Jsonified<U>[]
      : T extends object
        ? { [K in keyof T]: Jsonified<T[K]> }
        : T;

/** A chart's answer on the wire. */
export type ChartData<C extends ChartName> = Jsonified<ChartResult<C>>;
