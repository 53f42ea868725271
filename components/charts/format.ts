// How the dashboards write numbers. Shares are 0..1 in data and percentages on screen.

export function formatPct(share: number | null | undefined): string {
  if (share === null || share === undefined) return "—";
  const pct = share * 100;
  return `${pct !== 0 && Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0)}%`;
}

/** "40–89%" for a share interval, "1.2–2.3" for a mean. */
export function formatInterval(low: number | null, high: number | null, kind: "share" | "number"): string | null {
  if (low === null || high === null) return null;
  if (kind === "share") return `${(low * 100).toFixed(0)}–${(high * 100).toFixed(0)}%`;
  return `${low.toFixed(1)}–${high.toFixed(1)}`;
}

/** Percentage points for shares, plain for numbers; always signed. */
export function formatChange(change: number, kind: "share" | "number"): string {
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  const size = Math.abs(change);
  return kind === "share" ? `${sign}${(size * 100).toFixed(1)} pts` : `${sign}${size.toFixed(2)}`;
}

export const formatCount = (n: number) => n.toLocaleString("en-US");

/** Sample-size note for a chart: "n = 1,204 answers". */
export const sampleNote = (n: number, unit = "answers") => `n = ${formatCount(n)} ${n === 1 ? unit.replace(/s$/, "") : unit}`;

const dayFormat = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });

/** Axis label of a bucket (YYYY-MM-DD): "Mar 3", or "wk Mar 3" for weekly buckets. */
export const formatBucket = (bucket: string, unit: "day" | "week" = "day") =>
  `${unit === "week" ? "wk " : ""}${dayFormat.format(new Date(`${bucket}T00:00:00Z`))}`;
