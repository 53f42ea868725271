"use client";
import { useEffect, useRef, useState } from "react";

/**
 * A compact multi-select on <details>: keyboard-operable without a library, closes on Escape
 * and on a click outside. Nothing chosen means "all".
 */
export function MultiSelect({
  id,
  label,
  allLabel,
  options,
  value,
  onChange,
}: {
  id: string;
  label: string;
  allLabel: string;
  /** `note`: a muted remark after the label, e.g. "no data" for a provider without answers in the period. */
  options: { value: string; label: string; note?: string }[];
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: MouseEvent | KeyboardEvent) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node)) {
        details.open = false;
        if (event instanceof KeyboardEvent) details.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  // The address updates in a transition; until it has, show the box as just clicked.
  const key = value.join(",");
  const [pending, setPending] = useState<{ key: string; value: string[] } | null>(null);
  const shown = pending && pending.key === key ? pending.value : value;
  const chosen = options.filter((o) => shown.includes(o.value));
  const summary = chosen.length === 0 ? allLabel : chosen.length === 1 ? chosen[0]!.label : `${chosen.length} ${label.toLowerCase()}`;
  const change = (next: string[]) => {
    setPending({ key, value: next });
    onChange(next);
  };
  const toggle = (option: string) => change(shown.includes(option) ? shown.filter((v) => v !== option) : [...shown, option]);
  return (
    <div>
      <span id={`${id}-label`} className="mb-1 block text-xs font-medium text-slate-600">{label}</span>
      <details ref={ref} className="relative">
        <summary
          aria-labelledby={`${id}-label ${id}-value`}
          className="flex w-48 cursor-pointer list-none items-center justify-between gap-2 rounded-md bg-surface px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
        >
          <span id={`${id}-value`} className="truncate">{summary}</span>
          <span aria-hidden className="text-slate-400">▾</span>
        </summary>
        <fieldset className="absolute z-20 mt-1 max-h-72 w-64 overflow-y-auto rounded-md bg-surface p-2 shadow-lg ring-1 ring-slate-200">
          <legend className="sr-only">{label}</legend>
          {options.length === 0 && <p className="px-2 py-1 text-sm text-slate-500">None yet</p>}
          {options.map((option) => (
            <label key={option.value} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50">
              <input type="checkbox" checked={shown.includes(option.value)} onChange={() => toggle(option.value)} className="size-4 rounded border-slate-300" />
              <span className={`truncate ${option.note ? "text-slate-500" : ""}`}>{option.label}</span>
              {option.note && <span className="ml-auto shrink-0 text-xs text-slate-400">{option.note}</span>}
            </label>
          ))}
          {shown.length > 0 && (
            <button type="button" onClick={() => change([])} className="mt-1 w-full rounded px-2 py-1 text-left text-xs font-medium text-brand-700 hover:bg-brand-50">
              Show all ({allLabel.toLowerCase()})
            </button>
          )}
        </fieldset>
      </details>
    </div>
  );
}
