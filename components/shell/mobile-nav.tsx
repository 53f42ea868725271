"use client";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { ProductName } from "./product-name";

// Tailwind's `md`: from here on the sidebar shows and the drawer is not needed.
const WIDE = "(min-width: 48rem)";

/**
 * Below `md`: a top bar with the product name and a menu button that opens the sidebar's
 * content (`children`) as a drawer. The drawer is a modal <dialog>: the page behind it is inert,
 * Escape closes it and focus goes back to the button. Tab wraps around inside it (the browser
 * would move on to its own address bar). It also closes on navigation, on a tap beside it and
 * when the window grows wide enough for the sidebar.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  // Open "at" a path: navigating anywhere else closes it without an effect.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (open && !dialog?.open) dialog?.showModal();
    if (!open && dialog?.open) dialog.close();
  }, [open]);

  useEffect(() => {
    const wide = matchMedia(WIDE);
    const close = () => wide.matches && setOpenAt(null);
    wide.addEventListener("change", close);
    return () => wide.removeEventListener("change", close);
  }, []);

  const keepFocusInside = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab") return;
    // Tab stops: of a radio group only its checked radio.
    const stops = [...event.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not(:disabled), select:not(:disabled), input:not(:disabled)")].filter(
      (el) => !(el instanceof HTMLInputElement && el.type === "radio" && !el.checked),
    );
    const [first, last] = [stops[0], stops.at(-1)];
    if (!first || !last) return;
    if (event.shiftKey ? document.activeElement === first : document.activeElement === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  };

  const closeOnLinkOrBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    const target = event.target as HTMLElement;
    if (target === event.currentTarget || target.closest("a[href]")) setOpenAt(null);
  };

  return (
    <>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-surface px-2 md:hidden print:hidden">
        <button
          type="button"
          aria-label="Menu"
          aria-expanded={open}
          aria-controls="navigation-drawer"
          onClick={() => setOpenAt(pathname)}
          className="flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
        >
          <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden>
            <path d="M4 6h16M4 12h16M4 18h16" />
          </svg>
        </button>
        <ProductName />
      </header>
      <dialog
        id="navigation-drawer"
        ref={ref}
        aria-label="Navigation"
        onClose={() => setOpenAt(null)}
        onClick={closeOnLinkOrBackdrop}
        onKeyDown={keepFocusInside}
        className="m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-surface p-0 shadow-xl backdrop:bg-black/40"
      >
        {open && (
          <div className="flex min-h-full flex-col gap-6 p-4">
            <div className="flex items-center justify-between">
              <ProductName />
              <button
                type="button"
                aria-label="Close menu"
                onClick={() => setOpenAt(null)}
                className="flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100"
              >
                ✕
              </button>
            </div>
            {children}
          </div>
        )}
      </dialog>
    </>
  );
}
