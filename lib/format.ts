// How Beacon writes numbers, money and times for people: the dashboards, the alert messages, the
// CSV downloads and the server's error messages all format through here, so one value reads the
// same everywhere. Pure (no I/O, no React); server and browser code both import it. Parsing form
// input back is lib/validation/decimal.ts (parseDecimal/formatDecimal) and, for times of day,
// lib/schedules/next-run.ts.

/** What a missing value reads as, on screen and in messages. */
export const MISSING = "—";

const MINUS = "−";

/** "+", "−" or "±" before a magnitude: a change always says its direction. */
const signOf = (x: number, zero = "+") => (x > 0 ? "+" : x < 0 ? MINUS : zero);

// ---------------------------------------------------------------------------------------------
// Money. Amounts are integer micro-dollars (1 USD = 1,000,000), see lib/billing/money.ts.

/** "$1.23"; below a cent four decimals ("$0.0012"), so a single call's cost is not "$0.00". */
export function formatMicros(micros: number | bigint, options: { precise?: boolean } = {}): string {
  const dollars = Number(micros) / 1_000_000;
  if (!Number.isFinite(dollars)) return MISSING;
  const places = options.precise || (dollars !== 0 && Math.abs(dollars) < 0.01) ? 4 : 2;
  return `${dollars < 0 ? "-" : ""}$${Math.abs(dollars).toFixed(places)}`;
}

/**
 * Dollars with all six decimals and no "$" ("0.021250"), for CSV files: exact for any amount,
 * since it divides integers instead of a float. Not a number reads as an empty cell.
 */
export function formatDollarsExact(micros: number | bigint): string {
  if (typeof micros === "number" && !Number.isFinite(micros)) return "";
  const value = typeof micros === "bigint" ? micros : BigInt(Math.round(micros));
  const size = value < 0n ? -value : value;
  return `${value < 0n ? "-" : ""}${size / 1_000_000n}.${String(size % 1_000_000n).padStart(6, "0")}`;
}

/** A chart axis in dollars: "$0.25" below ten dollars, "$12" from there. */
export const formatDollarsAxis = (dollars: number) => `$${dollars < 10 ? dollars.toFixed(2) : dollars.toFixed(0)}`;

// ---------------------------------------------------------------------------------------------
// Counts and numbers.

/** "1,204". */
export const formatCount = (n: number) => n.toLocaleString("en-US");

const compactCount = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
/** A count on a chart's axis, short enough for its narrow gutter: 850, 3.4K, 15.7K, 1.2M. */
export const formatAxisCount = (n: number) => compactCount.format(n);

/** Sample-size note for a chart: "n = 1,204 answers". */
export const sampleNote = (n: number, unit = "answers") => `n = ${formatCount(n)} ${n === 1 ? unit.replace(/s$/, "") : unit}`;

/** A number as people read it: at most 4 significant digits, no float noise. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(4)));
}

/** An average position (1 is named first): "1.33"; tables pass one place. */
export const formatPosition = (value: number | null | undefined, places = 2) => (value === null || value === undefined ? MISSING : value.toFixed(places));

/** A signed change of a plain number, two places: "+0.25", "−1.50". */
export const formatSignedNumber = (change: number) => `${signOf(change)}${Math.abs(change).toFixed(2)}`;

/** A p-value as a test reports it: "p = 0.047", "p < 0.001". */
export const formatPValue = (p: number) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);

// ---------------------------------------------------------------------------------------------
// Shares (0..1 in data) as percentages. Two registers: the dashboards' compact "77%" (tiles,
// axes and tables, where width is scarce) and the sentences' "77 %" (alert messages, errors).

/** Dashboards: "77%", one decimal under 10 % ("5.3%"). */
export function formatPct(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return MISSING;
  const pct = share * 100;
  return `${pct !== 0 && Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0)}%`;
}

/** Sentences: "40 %", "75.5 %" (at most one decimal). */
export const percentText = (share: number | null) => (share === null ? MISSING : `${formatNumber(Math.round(share * 1000) / 10)} %`);

/** A change of a share in percentage points, for sentences: "+5", "−12.5" (the caller adds the unit). */
export const formatSignedPoints = (change: number) => `${signOf(change)}${formatNumber(Math.round(Math.abs(change) * 1000) / 10)}`;

/** Dashboards: "40–89%" for a share interval, "1.2–2.3" for a mean. */
export function formatInterval(low: number | null, high: number | null, kind: "share" | "number"): string | null {
  if (low === null || high === null) return null;
  if (kind === "share") return `${(low * 100).toFixed(0)}–${(high * 100).toFixed(0)}%`;
  return `${low.toFixed(1)}–${high.toFixed(1)}`;
}

/** Dashboards: percentage points for shares, plain for numbers; always signed ("±0.0 pts"). */
export function formatChange(change: number, kind: "share" | "number"): string {
  const size = Math.abs(change);
  return `${signOf(change, "±")}${kind === "share" ? `${(size * 100).toFixed(1)} pts` : size.toFixed(2)}`;
}

// ---------------------------------------------------------------------------------------------
// Durations and ages.

/** How long a call took: "850 ms", "2.5 s", "3 min 5 s". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return MISSING;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Compact ages for a page that is read at a glance: "45 s", "12 min", "3 h 5 min", "4 d". */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/**
 * An estimate's time left, coarse as estimates are and never below it: "less than a minute left",
 * "about 25 min left", "about 2 h 10 min left", "about 3 d left".
 */
export function formatTimeLeft(ms: number): string {
  if (ms < 60_000) return "less than a minute left";
  if (ms >= 48 * 3_600_000) return `about ${Math.ceil(ms / 86_400_000)} d left`;
  const minutes = ms < 3_600_000 ? Math.ceil(ms / 60_000) : Math.ceil(ms / 600_000) * 10;
  return `about ${formatAge(minutes * 60_000)} left`;
}

/** "3 s ago". */
export const ago = (date: Date | string, now: number) => `${formatAge(now - new Date(date).getTime())} ago`;

/** "in 40 s" while the moment is ahead, "3 s ago" once it has passed. */
export function relativeTo(date: Date | string, now: number): string {
  const ms = new Date(date).getTime() - now;
  return ms > 0 ? `in ${formatAge(ms)}` : ago(date, now);
}

// ---------------------------------------------------------------------------------------------
// Dates and times. Absolute dates are in the reader's locale and zone, except where a page is
// about UTC (schedules run in UTC, chart buckets are UTC days, a shared report is read anywhere).

/** "Dec 1, 2026" in the reader's locale. */
export const formatDate = (date: Date | string) => new Date(date).toLocaleDateString(undefined, { dateStyle: "medium" });

/** "Dec 1, 2026, 3:50 PM" in the reader's locale and zone. */
export const formatDateTime = (date: Date | string) => new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** With seconds, for event logs and exact-time tooltips: "Dec 1, 2026, 3:50:54 PM". */
export const formatTimestamp = (date: Date | string) => new Date(date).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "5 minutes ago", "in 2 hours", "yesterday"; a week or more away, the date. */
export function formatWhen(date: Date | string, now: number = Date.now()): string {
  const d = new Date(date);
  const seconds = Math.round((d.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, "second");
  if (abs < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), "hour");
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return formatDate(d);
}

const utcMinute = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "Mon 30 Nov, 09:00 UTC". */
export const formatUtc = (date: Date | string) => `${utcMinute.format(new Date(date))} UTC`;

const utcDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A calendar day (YYYY-MM-DD) as "1 Dec 2026". */
export const formatDay = (day: string) => utcDay.format(new Date(`${day}T00:00:00Z`));

const utcDateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "1 Dec 2026, 15:50 UTC". */
export const formatUtcDateTime = (date: Date | string) => `${utcDateTime.format(new Date(date))} UTC`;

const bucketDay = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });

const bucketMonth = new Intl.DateTimeFormat("en", { month: "short", year: "numeric", timeZone: "UTC" });

/** Axis label of a bucket (YYYY-MM-DD): "Mar 3", "wk Mar 3" for weekly buckets, "Mar 2025" for monthly ones. */
export const formatBucket = (bucket: string, unit: "day" | "week" | "month" = "day") =>
  unit === "month" ? bucketMonth.format(new Date(`${bucket}T00:00:00Z`)) : `${unit === "week" ? "wk " : ""}${bucketDay.format(new Date(`${bucket}T00:00:00Z`))}`;
