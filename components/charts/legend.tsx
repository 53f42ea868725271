import type { CSSProperties } from "react";

/**
 * One entry of a chart's legend: a line (dashed for an aggregate like "All providers") or a bar's
 * square (pale with a dashed border for a bar's unverified part).
 */
export type LegendItem = { name: string; color: string; mark: "line" | "bar"; dashed?: boolean; pale?: boolean };

/** How strong a pale bar's fill is (stacked-bar-chart.tsx draws it so; its swatch here matches). */
export const PALE_OPACITY = 0.35;

/**
 * A chart's legend as HTML under its plot, in the order the series are drawn (the brand first).
 *
 * Why not recharts' <Legend>: it measures its own box after rendering and then lays the whole
 * chart out again around it, one more render of every series; on the Overview's visibility chart
 * (five lines with their bands) that was ~60 ms of a warm visit's main thread
 * (docs/benchmarks.md, "Legends in HTML"). As a list it is also text a screen reader reads and
 * the browser's find finds, drawn at once whether or not the chart has been.
 */
export function ChartLegend({ items }: { items: LegendItem[] }) {
  return (
    <ul aria-label="Legend" data-legend className="flex flex-wrap justify-center gap-x-4 gap-y-1 pt-2 text-xs text-slate-700">
      {items.map((item) => (
        <li key={item.name} className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block shrink-0" style={markStyle(item)} />
          {item.name}
        </li>
      ))}
    </ul>
  );
}

function markStyle({ color, mark, dashed, pale }: LegendItem): CSSProperties {
  if (mark === "line") return { width: 14, borderTop: `2px ${dashed ? "dashed" : "solid"} ${color}` };
  // A pale bar as the chart draws it: its fill at PALE_OPACITY, its outline dashed at full strength.
  if (pale) return { width: 10, height: 10, borderRadius: 2, background: `color-mix(in srgb, ${color} ${PALE_OPACITY * 100}%, transparent)`, outline: `1px dashed ${color}`, outlineOffset: -1 };
  return { width: 10, height: 10, borderRadius: 2, background: color };
}
