// A batch of stored hits summed per rollup key (docs/traffic.md "What is stored") in Node, before
// the batch is written. Node has a core to spare during an import and PostgreSQL, the import's
// bottleneck, does not: the statement receives each key once with its sums instead of grouping
// every raw hit itself.
import type { Verification } from "@/lib/traffic/verify";

export type RollupHit = { at: Date; domain: string; path: string; crawler: string; verification: Verification; status: number };

/** A batch's hits per traffic_daily key, as columns (one array per column, the shape `unnest` takes). */
export type BatchRollup = {
  day: string[];
  domain: string[];
  path: string[];
  crawler: string[];
  verification: string[];
  hits: number[];
  /** Hits with a status of 400 or more. */
  errors: number[];
};

const DAY_MS = 86_400_000;
// NUL separates the parts of a key: PostgreSQL text cannot hold it, so no part contains one.
const SEP = "\u0000";

/**
 * The batch summed per (day, domain, path, crawler, verification): the finest rollup's rows, from
 * which the statement sums the coarser ones. In the order the keys first occur; the statement
 * sorts them (PostgreSQL sorts a few thousand rows for less than sorting them here costs).
 */
export function rollupOf(hits: readonly RollupHit[]): BatchRollup {
  const out: BatchRollup = { day: [], domain: [], path: [], crawler: [], verification: [], hits: [], errors: [] };
  const groups = new Map<string, number>();
  // toISOString per hit was half of this function's time: a batch spans few days.
  const dayNames = new Map<number, string>();
  for (const h of hits) {
    const dayNumber = Math.floor(h.at.getTime() / DAY_MS);
    let day = dayNames.get(dayNumber);
    if (day === undefined) {
      // The UTC day, as PostgreSQL's `(at AT TIME ZONE 'UTC')::date` reads it (four-digit years: what the log formats write).
      day = h.at.toISOString().slice(0, 10);
      dayNames.set(dayNumber, day);
    }
    const key = day + SEP + h.domain + SEP + h.path + SEP + h.crawler + SEP + h.verification;
    const error = h.status >= 400 ? 1 : 0;
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, out.day.length);
      out.day.push(day);
      out.domain.push(h.domain);
      out.path.push(h.path);
      out.crawler.push(h.crawler);
      out.verification.push(h.verification);
      out.hits.push(1);
      out.errors.push(error);
    } else {
      out.hits[group]! += 1;
      out.errors[group]! += error;
    }
  }
  return out;
}
