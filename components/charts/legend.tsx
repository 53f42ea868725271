import type { ReactNode } from "react";

/**
 * Props for recharts' <Legend>: series in the order they are drawn (the brand first) instead of
 * alphabetical, and labels in body text colour so light series stay readable.
 */
export const legendProps = {
  itemSorter: null,
  wrapperStyle: { fontSize: 12, paddingTop: 8 },
  formatter: (value: ReactNode) => <span className="text-slate-700">{value}</span>,
} as const;
