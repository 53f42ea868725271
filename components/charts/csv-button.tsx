"use client";
import { toCsv, type CsvValue } from "@/lib/analytics/csv";

export type CsvData = { filename: string; header: string[]; rows: CsvValue[][] };

/** Downloads the rows a chart shows as a CSV file, built here in the browser. */
export function CsvButton({ csv, label }: { csv: CsvData; label: string }) {
  const download = () => {
    // toCsv starts with the byte-order mark that makes spreadsheet programs read UTF-8.
    const blob = new Blob([toCsv(csv.header, csv.rows)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = csv.filename.endsWith(".csv") ? csv.filename : `${csv.filename}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };
  return (
    <button
      type="button"
      onClick={download}
      disabled={!csv.rows.length}
      aria-label={`Download ${label} as CSV`}
      className="rounded px-2 py-1 text-xs print:hidden font-medium text-slate-600 ring-1 ring-slate-200 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-300"
    >
      CSV
    </button>
  );
}
