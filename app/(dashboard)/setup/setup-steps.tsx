/** The setup path's three steps, the current one marked (for screen readers too); 4: all done. */
const STEPS = ["Your website", "Review suggestions", "First check"] as const;

export function SetupSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  return (
    <ol aria-label="Setup steps" className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm sm:gap-x-2">
      {STEPS.map((label, index) => {
        const step = index + 1;
        const state = step < current ? "done" : step === current ? "current" : "next";
        return (
          <li key={label} aria-current={state === "current" ? "step" : undefined} className="flex items-center gap-2">
            <span
              aria-hidden
              className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                state === "done" ? "bg-emerald-100 text-emerald-700" : state === "current" ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-500"
              }`}
            >
              {state === "done" ? "✓" : step}
            </span>
            <span className={state === "current" ? "font-semibold text-slate-900" : "text-slate-500"}>
              {label}
              {state === "done" && <span className="sr-only"> (done)</span>}
            </span>
            {/* The connecting line only where the steps fit on one line. */}
            {step < STEPS.length && <span aria-hidden className="mx-1 hidden h-px w-10 bg-slate-300 sm:block" />}
          </li>
        );
      })}
    </ol>
  );
}
