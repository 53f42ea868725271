"use client";
import type { ReactNode } from "react";

/** A tooltip box for recharts' `content`: a heading and one line per series. */
export function TooltipBox({ title, lines, footer }: { title: ReactNode; lines: { color: string; label: ReactNode; value: ReactNode; detail?: ReactNode }[]; footer?: ReactNode }) {
  return (
    <div className="min-w-44 rounded-md bg-surface px-3 py-2 text-xs shadow-lg ring-1 ring-slate-200">
      <p className="mb-1 font-semibold text-slate-900">{title}</p>
      <ul className="space-y-0.5">
        {lines.map((line, i) => (
          <li key={i} className="flex items-baseline gap-2">
            <span className="inline-block size-2 shrink-0 rounded-full" style={{ background: line.color }} aria-hidden />
            <span className="text-slate-600">{line.label}</span>
            <span className="ml-auto pl-3 font-medium tabular-nums text-slate-900">{line.value}</span>
            {line.detail && <span className="text-slate-400 tabular-nums">{line.detail}</span>}
          </li>
        ))}
      </ul>
      {footer && <p className="mt-1 border-t border-slate-100 pt-1 text-slate-500">{footer}</p>}
    </div>
  );
}
