"use client";
import { useQueryClient } from "@tanstack/react-query";
import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { CONTENT_MARK, pageSettled } from "@/lib/browser/content-mark";

/**
 * Sets the performance mark `beacon:content` when the page's last chart or table has its data
 * (lib/browser/content-mark.ts), once per page (path): the page benchmark's "content rendered".
 * The mark waits for the frame after the data: the query cache tells before React has rendered
 * the answer, and a task queued from requestAnimationFrame runs after that frame is painted.
 */
export function ContentMark() {
  const client = useQueryClient();
  const pathname = usePathname();
  useEffect(() => {
    let done = false;
    let frame = 0;
    const check = () => {
      if (done || !pageSettled(client)) return;
      done = true;
      frame = requestAnimationFrame(() => setTimeout(() => performance.mark(CONTENT_MARK, { detail: { path: pathname } })));
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
