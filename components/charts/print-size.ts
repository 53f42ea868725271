"use client";
import { createContext, useEffect, useState, type RefObject } from "react";
import { flushSync } from "react-dom";

/**
 * The width a printed page gives its content, in CSS pixels: A4 less the margins of the `@page`
 * rule in app/globals.css (`size: A4; margin: 12mm`), which forces that paper size in Chrome's
 * print dialog. Keep the two in step.
 */
export const PRINTABLE_WIDTH_PX = ((210 - 2 * 12) / 25.4) * 96;

/**
 * The tallest a chart is printed (on screen they are 280-300 px): A4 then holds the Overview's
 * three charts and its tables on three pages, with room for a row or two more.
 */
export const PRINT_CHART_MAX_HEIGHT_PX = 200;

export type PrintSize = { width: number; height: number };

/**
 * The print size of the chart in this card (ChartCard provides it; ResponsiveChart draws at it,
 * drawn or not before). A context, not a wrapper around the chart: changing the card's tree on
 * `beforeprint` would mount the chart anew, and a chart not yet drawn would lose the moment.
 */
export const PrintSizeContext = createContext<PrintSize | null>(null);

/**
 * While the page prints, the size to draw the chart in `content` (a card's body) at: the printable
 * width less the card's padding, at the chart's screen height up to PRINT_CHART_MAX_HEIGHT_PX.
 * Null on screen, and for a card without exactly one recharts chart (tables flow as they are).
 *
 * Why: the browser lays the page out for paper without anything recharts' ResizeObserver sees, so
 * a chart kept its screen width and was scaled to the page: a half-width chart filled 65 % of it,
 * a full-width one shrank its 12 px (9 pt) axis labels to 7 pt. Rendering synchronously in
 * `beforeprint` (flushSync) draws the chart for the paper before the browser lays the page out
 * (Chrome's print dialog and its PDF printing both send the event); a change of the `print` media
 * query covers print emulation.
 */
export function usePrintSize(content: RefObject<HTMLElement | null>): PrintSize | null {
  const [size, setSize] = useState<PrintSize | null>(null);
  useEffect(() => {
    const enter = () => {
      const box = content.current;
      const card = box?.parentElement;
      // A chart not yet drawn (below the fold) has its box too, of the same height; it draws on this event (responsive-chart.tsx).
      const charts = box?.querySelectorAll("[data-chart]");
      // Once drawn for print the chart has no container of its own: a second signal changes nothing.
      if (!box || !card || charts?.length !== 1) return;
      const padding = card.getBoundingClientRect().width - box.getBoundingClientRect().width;
      // The plot's height: the chart's box holds its legend too (responsive-chart.tsx), which prints under it.
      const legend = charts[0]!.querySelector("[data-legend]")?.getBoundingClientRect().height ?? 0;
      const height = Math.min(charts[0]!.getBoundingClientRect().height, PRINT_CHART_MAX_HEIGHT_PX) - legend;
      flushSync(() => setSize({ width: Math.floor(PRINTABLE_WIDTH_PX - padding), height }));
    };
    const leave = () => setSize(null);
    const media = window.matchMedia("print");
    const change = (event: MediaQueryListEvent) => (event.matches ? enter() : leave());
    window.addEventListener("beforeprint", enter);
    window.addEventListener("afterprint", leave);
    media.addEventListener("change", change);
    return () => {
      window.removeEventListener("beforeprint", enter);
      window.removeEventListener("afterprint", leave);
      media.removeEventListener("change", change);
    };
  }, [content]);
  return size;
}
