/**
 * Shown while a card keeps the previous filter's numbers on screen (TanStack Query's placeholder
 * data) and the new filter's are on their way: a thin pulsing bar, named for screen readers.
 */
export function StaleCue() {
  return (
    <div role="progressbar" aria-label="Loading the numbers for the new filters" className="absolute inset-x-0 top-0 h-1 overflow-hidden rounded-t-lg bg-brand-100">
      <div className="h-full w-full animate-pulse bg-brand-500" />
    </div>
  );
}

/** Classes that dim numbers that belong to the previous filter. */
export const STALE_CLASSES = "opacity-40 grayscale transition-opacity";
