"use client";
import { useQueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { CONTENT_MARK, firstScreenDrawn, pageSettled } from "@/lib/browser/content-mark";

/**
 * Sets the performance mark `beacon:content` when the page's last chart or table has its data
 * and every chart in view has drawn (lib/browser/content-mark.ts), once per page (path): the
 * page benchmark's "content rendered". The query cache tells before React has rendered the
 * answer, and a chart draws a frame or more later (its ResponsiveContainer measures first), so
 * the mark looks again each frame until the charts in view are drawn, and is set from a task
 * queued in the frame after, which runs once that frame is painted.
 */
export function ContentMark() {
  const client = useQueryClient();
  const pathname = usePathname();
  useEffect(() => {
    let done = false;
    let frame = 0;
    const drawnThenMark = () => {
      frame = requestAnimationFrame(() =>
        firstScreenDrawn(document) ? setTimeout(() => performance.mark(CONTENT_MARK, { detail: { path: pathname } })) : drawnThenMark(),
      );
    };
    const check = () => {
      if (done || !pageSettled(client)) return;
      done = true;
      drawnThenMark();
    };
    // The page's queries start in its own effects, which run before this one (it is rendered after the page).
    check();
    const unsubscribe = client.getQueryCache().subscribe(check);
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [client, pathname]);
  return null;
}
