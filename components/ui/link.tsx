"use client";
import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from "react";

type LinkProps = Omit<ComponentProps<typeof NextLink>, "href" | "prefetch"> & { href: string };

/**
 * The app's link: next/link that asks the server for the next page when the user shows intent
 * (the pointer over it, keyboard focus, a touch), not when it scrolls into view.
 *
 * Why: every page here is dynamic, and next/link prefetches each link in the viewport as soon as
 * the page hydrates: on the Overview thirteen requests to the server, each a render of the
 * route's layout, while the charts draw on the same two cores (docs/benchmarks.md "Links
 * prefetch on intent": warm chart pages 25–120 ms faster without them). Hover or focus comes
 * 100–300 ms before a click, time enough for the same prefetch; a touch comes ~100 ms before.
 * `eslint.config.mjs` keeps next/link out of the rest of the code.
 */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const router = useRouter();
  const prefetch = () => router.prefetch(href);
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        prefetch();
        onMouseEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        prefetch();
        onFocus?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        prefetch();
        onTouchStart?.(event);
      }}
    />
  );
}
