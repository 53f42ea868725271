// A batch of stored hits summed into the rows of the four rollups (docs/traffic.md "What is
// stored") in Node, before the batch is written. Node has a core to spare during an import and
// PostgreSQL does not: grouping and sorting here leaves the statement only the upserts, each key
// once per batch, and no hash or sort of its own that could spill past work_mem in a large batch.
import type { Verification } from "@/lib/traffic/verify";

export type RollupHit = { at: Date; domain: string; path: string; crawler: string; verification: Verification; status: number };

/** Hits and errors (status >= 400) of one key. */
type Counts = { hits: number; errors: number };

/** Each rollup as columns (one array per column, the shape `unnest` takes), rows in key order. */
export type BatchRollups = {
  /** The day of each hit (UTC, YYYY-MM-DD), in the batch's order: the raw rows' day column. */
  days: string[];
  daily: { day: string[]; domain: string[]; path: string[]; crawler: string[]; verification: string[]; hits: number[]; errors: number[] };
  crawls: { day: string[]; domain: string[]; crawler: string[]; verification: string[]; hits: number[]; errors: number[] };
  pagesDaily: { day: string[]; domain: string[]; path: string[]; hits: number[]; errors: number[] };
  pagesWeekly: { week: string[]; domain: string[]; path: string[]; hits: number[]; errors: number[] };
};

const DAY_MS = 86_400_000;

/** The UTC day of a time as PostgreSQL's `(at AT TIME ZONE 'UTC')::date` reads it (a four-digit year, as every log format writes). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The Monday of a day's week, as `date_trunc('week', day)::date` (ISO weeks start on Monday). */
export function weekOf(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

// NUL separates the parts of a key: PostgreSQL text cannot hold it, so no part contains one.
const SEP = "\u0000";

function add<K>(groups: Map<string, { key: K; counts: Counts }>, id: string, key: K, error: boolean) {
  let group = groups.get(id);
  if (!group) {
    group = { key, counts: { hits: 0, errors: 0 } };
    groups.set(id, group);
  }
  group.counts.hits += 1;
  if (error) group.counts.errors += 1;
}

/** The groups sorted by their key parts (compared as the key string: the same order for every batch, so two imports lock shared rows in one order). */
const sorted = <K>(groups: Map<string, { key: K; counts: Counts }>) => [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);

export function rollupsOf(hits: readonly RollupHit[]): BatchRollups {
  const days: string[] = new Array<string>(hits.length);
  const daily = new Map<string, { key: [string, string, string, string, string]; counts: Counts }>();
  const crawls = new Map<string, { key: [string, string, string, string]; counts: Counts }>();
  const pagesDaily = new Map<string, { key: [string, string, string]; counts: Counts }>();
  const pagesWeekly = new Map<string, { key: [string, string, string]; counts: Counts }>();
  const weeks = new Map<string, string>();
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i]!;
    const day = utcDay(h.at);
    days[i] = day;
    let week = weeks.get(day);
    if (week === undefined) {
      week = weekOf(day);
      weeks.set(day, week);
    }
    const error = h.status >= 400;
    // traffic_daily's key leads with the page (its primary key's order).
    add(daily, h.domain + SEP + h.path + SEP + day + SEP + h.crawler + SEP + h.verification, [day, h.domain, h.path, h.crawler, h.verification], error);
    add(crawls, day + SEP + h.domain + SEP + h.crawler + SEP + h.verification, [day, h.domain, h.crawler, h.verification], error);
    add(pagesDaily, day + SEP + h.domain + SEP + h.path, [day, h.domain, h.path], error);
    add(pagesWeekly, week + SEP + h.domain + SEP + h.path, [week, h.domain, h.path], error);
  }
  const d = sorted(daily);
  const c = sorted(crawls);
  const pd = sorted(pagesDaily);
  const pw = sorted(pagesWeekly);
  return {
    days,
    daily: {
      day: d.map((g) => g.key[0]),
      domain: d.map((g) => g.key[1]),
      path: d.map((g) => g.key[2]),
      crawler: d.map((g) => g.key[3]),
      verification: d.map((g) => g.key[4]),
      hits: d.map((g) => g.counts.hits),
      errors: d.map((g) => g.counts.errors),
    },
    crawls: {
      day: c.map((g) => g.key[0]),
      domain: c.map((g) => g.key[1]),
      crawler: c.map((g) => g.key[2]),
      verification: c.map((g) => g.key[3]),
      hits: c.map((g) => g.counts.hits),
      errors: c.map((g) => g.counts.errors),
    },
    pagesDaily: { day: pd.map((g) => g.key[0]), domain: pd.map((g) => g.key[1]), path: pd.map((g) => g.key[2]), hits: pd.map((g) => g.counts.hits), errors: pd.map((g) => g.counts.errors) },
    pagesWeekly: { week: pw.map((g) => g.key[0]), domain: pw.map((g) => g.key[1]), path: pw.map((g) => g.key[2]), hits: pw.map((g) => g.counts.hits), errors: pw.map((g) => g.counts.errors) },
  };
}
