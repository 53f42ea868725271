"use client";
import { useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { formatAxisCount } from "@/lib/format";

/** The plot's height in viewBox units: bars are scaled to it, the box stretches it to `height`. */
const VIEW_HEIGHT = 100;
/** The share of a bucket's width between two bars. */
const GAP = 0.15;

/**
 * A small bar chart of one series, drawn as plain SVG: one bar per bucket on the scale 0 to
 * `max` (its two ticks on the left), a dashed line at `max`, the hovered, tapped or focused
 * bucket's `tooltip` over it. Focus it and use the arrow keys (Home, End; Escape hides) for a
 * bucket's tooltip, which is also announced.
 *
 * Why not recharts, which draws every other chart: this is the small multiple (the Sources page
 * shows six side by side), with no axis labels or legend to lay out. Six recharts charts, each
 * with its store, its measured container and its axes, cost ~55 ms more of a warm Sources visit
 * on a 2-core machine than these (docs/benchmarks.md, "The category panels"): a few rects each,
 * which the browser stretches to the box (viewBox, no measuring), also on paper.
 */
export function BarStrip({ values, max, color, label, height, tooltip }: {
  values: number[];
  max: number;
  color: string;
  /** What the chart shows, for assistive technology ("Review sites: citations per day"). */
  label: string;
  height: number;
  tooltip: (index: number) => ReactNode;
}) {
  // The bucket shown, and the side its tooltip grows toward: away from the nearer edge of the
  // window (a phone's panel is narrower than the tooltip, so the panel's own middle would not do).
  const [shown, setShown] = useState<{ index: number; grow: "left" | "right" } | null>(null);
  const n = values.length;
  // New data with fewer buckets (a shorter range) keeps this panel and what it showed.
  const active = shown && shown.index < n ? shown.index : null;
  const scale = max > 0 ? VIEW_HEIGHT / max : 0;
  const viewWidth = Math.max(n, 1);
  const show = (plot: HTMLElement, index: number | null) => {
    if (index === null) return setShown(null);
    const box = plot.getBoundingClientRect();
    const grow = box.left + box.width / 2 < window.innerWidth / 2 ? "right" : "left";
    setShown((prev) => (prev?.index === index && prev.grow === grow ? prev : { index, grow }));
  };
  const pointed = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    show(event.currentTarget, Math.min(n - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * n))));
  };
  const keys = (event: KeyboardEvent<HTMLDivElement>) => {
    const next =
      event.key === "ArrowRight" ? Math.min(n - 1, (active ?? -1) + 1)
      : event.key === "ArrowLeft" ? Math.max(0, (active ?? n) - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? n - 1
      : event.key === "Escape" && active !== null ? null
      : undefined;
    if (next === undefined || !n) return;
    event.preventDefault();
    show(event.currentTarget, next);
  };
  return (
    <div className="flex text-[10px] text-slate-500" style={{ height }}>
      {/* The scale's two ticks, as the other charts' y axes write them. */}
      <div className="flex w-[34px] shrink-0 flex-col justify-between pr-1 text-right tabular-nums leading-none dark:text-slate-600" aria-hidden>
        <span data-y-max>{formatAxisCount(max)}</span>
        <span>0</span>
      </div>
      <div
        className="relative min-w-0 flex-1 rounded-sm focus-visible:outline-2 focus-visible:outline-brand-500"
        // An application, as recharts' accessibility layer: a screen reader passes the arrow keys on.
        role="application"
        aria-roledescription="bar chart"
        aria-label={`${label}. Arrow keys, Home and End show a bucket's count.`}
        tabIndex={0}
        onPointerMove={(event) => n && pointed(event)}
        // A tap shows the bucket (a touch moves no pointer over it first) and stays until the next tap elsewhere.
        onPointerDown={(event) => n && pointed(event)}
        onPointerLeave={(event) => event.pointerType === "mouse" && setShown(null)}
        onKeyDown={keys}
        onBlur={() => setShown(null)}
      >
        <svg viewBox={`0 0 ${viewWidth} ${VIEW_HEIGHT}`} preserveAspectRatio="none" className="block size-full overflow-visible" aria-hidden>
          {active !== null && <rect x={active} width={1} y={0} height={VIEW_HEIGHT} className="fill-slate-100" />}
          <line x1={0} x2={viewWidth} y1={0} y2={0} strokeDasharray="3 3" className="stroke-slate-200" vectorEffect="non-scaling-stroke" />
          {values.map((value, i) =>
            value > 0 ? <rect key={i} data-bar x={i + GAP / 2} width={1 - GAP} y={VIEW_HEIGHT - value * scale} height={value * scale} fill={color} /> : null,
          )}
          <line x1={0} x2={viewWidth} y1={VIEW_HEIGHT} y2={VIEW_HEIGHT} className="stroke-slate-300" vectorEffect="non-scaling-stroke" />
        </svg>
        {/* Over the bucket, growing away from the window's nearer edge; announced when it changes. */}
        <div
          className="pointer-events-none absolute bottom-full z-10 mb-1 w-max"
          style={shown === null || active === null ? undefined : shown.grow === "right" ? { left: `${(active / n) * 100}%` } : { right: `${((n - 1 - active) / n) * 100}%` }}
          aria-live="polite"
        >
          {active !== null && tooltip(active)}
        </div>
      </div>
    </div>
  );
}
