"use client";
import { useLayoutEffect, useState, type RefObject, type UIEvent } from "react";

type ScrollEdges = { scrolled: boolean; moreRight: boolean };

/** A scroll box's edges now, keeping the state as it was when nothing changed (no render). */
function edgesOf(el: HTMLElement, now: ScrollEdges): ScrollEdges {
  // 1 px of slack: zoomed layouts report fractional widths.
  const next = { scrolled: el.scrollLeft > 0, moreRight: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
  return now.scrolled === next.scrolled && now.moreRight === next.moreRight ? now : next;
}

/**
 * Whether a horizontal scroll box (a wide table on a phone) has scrolled from its start (for a
 * sticky first column's shadow) and whether content lies past its right edge (for `ScrollFade`):
 * measured on scroll (pass `onScroll` to the box), and when the box or its first child changes
 * size (a resize, new rows, a cell's content loading; a ResizeObserver also reports each element
 * once when it starts observing). `shown`: whether the box is rendered now.
 */
export function useScrollEdges(box: RefObject<HTMLElement | null>, shown = true) {
  const [edges, setEdges] = useState<ScrollEdges>({ scrolled: false, moreRight: false });
  useLayoutEffect(() => {
    const el = box.current;
    if (!shown || !el) return;
    const observer = new ResizeObserver(() => setEdges((now) => edgesOf(el, now)));
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [box, shown]);
  const onScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    setEdges((now) => edgesOf(el, now));
  };
  return { ...edges, onScroll };
}

/**
 * A fade over the right edge of a scroll box while content lies past it: a phone shows no scroll
 * bar until the box is touched, and a wide table's numbers are often the columns out of view.
 * Place it beside the scroll box, inside a positioned parent that carries
 * `data-more-right={moreRight ? "" : undefined}` (browser tests read it); above sticky columns.
 */
export function ScrollFade({ show }: { show: boolean }) {
  return show ? <div aria-hidden className="pointer-events-none absolute inset-y-0 right-0 z-[11] w-10 bg-gradient-to-l from-surface to-transparent print:hidden" /> : null;
}
