"use client";
import { use, useEffect, useRef, useState, type ReactElement, type RefObject } from "react";
import { flushSync } from "react-dom";
import { ResponsiveContainer } from "recharts";
import { ChartLegend, type LegendItem } from "./legend";
import { PrintSizeContext } from "./print-size";

/**
 * How far below (or above) the viewport a chart starts drawing: a chart takes 30–100 ms to draw,
 * less than scrolling 200 px takes at reading pace, so it is drawn by the time it shows; a larger
 * margin would draw the second row of charts with the first screen again.
 */
export const DRAW_AHEAD_PX = 200;

/**
 * A recharts chart at the width of its parent with its legend under it (legend.tsx), drawn once
 * it comes within DRAW_AHEAD_PX of the viewport (or the page prints); until then an empty box of
 * its height holds its place, the legend already in it.
 *
 * Why: drawing is what a chart page's first screen waits for. A warm Overview spent 300–400 ms of
 * main thread rendering its charts after their data arrived (recharts, React and the axes' layout;
 * docs/benchmarks.md), most of it on charts below the fold; on a phone only one chart is in view.
 * Dashboards with many panels draw them as they scroll in for the same reason. The data is asked
 * for with the page as before, so a chart drawn late still draws from answered data at once; only
 * the SVG waits. Tables are not deferred: their text stays searchable with the browser's find.
 */
export function ResponsiveChart({ height, legend, children }: { height: number; legend?: LegendItem[]; children: ReactElement }) {
  const box = useRef<HTMLDivElement>(null);
  // Printing: the size the card gives its one chart for paper (print-size.ts), which draws it.
  const print = use(PrintSizeContext);
  const drawn = useDrawnWhenNear(box) || print !== null;
  return (
    // data-chart: the card's print sizing finds the chart by it, drawn or not (print-size.ts). On
    // screen the plot takes what the legend leaves of `height`, as recharts' own legend did; for
    // paper it is drawn at the print size, the legend under it.
    <div ref={box} data-chart={drawn ? "drawn" : "waiting"} className="flex flex-col" style={print ? undefined : { height }}>
      <div className="min-h-0 flex-1">
        {drawn && (
          <ResponsiveContainer width={print?.width ?? "100%"} height={print?.height ?? "100%"}>
            {children}
          </ResponsiveContainer>
        )}
      </div>
      {legend && legend.length > 0 && <ChartLegend items={legend} />}
    </div>
  );
}

/**
 * True once `box` has come within DRAW_AHEAD_PX of the viewport, and from then on. Printing draws
 * at once and synchronously (flushSync in `beforeprint`, or when the `print` media query starts to
 * match, as print emulation does), so the page laid out for paper has every chart.
 */
function useDrawnWhenNear(box: RefObject<HTMLElement | null>): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (drawn || !element) return;
    const media = window.matchMedia("print");
    if (media.matches) {
      // Mounted while printing (print emulation before the data came): draw in the next task.
      const task = setTimeout(() => setDrawn(true));
      return () => clearTimeout(task);
    }
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setDrawn(true), { rootMargin: `${DRAW_AHEAD_PX}px 0px` });
    observer.observe(element);
    const print = () => flushSync(() => setDrawn(true));
    const change = (event: MediaQueryListEvent) => event.matches && print();
    window.addEventListener("beforeprint", print);
    media.addEventListener("change", change);
    return () => {
      observer.disconnect();
      window.removeEventListener("beforeprint", print);
      media.removeEventListener("change", change);
    };
  }, [box, drawn]);
  return drawn;
}
