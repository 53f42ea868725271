import { filterSearchParams, type AnalyticsFilterInput } from "@/lib/analytics/schemas";

/** "Export captures: CSV · JSON" for the current filter (at most 100,000 answers). */
export function ExportLinks({ filter }: { filter: AnalyticsFilterInput }) {
  const href = (format: "csv" | "json") => `/api/exports/captures?format=${format}&${filterSearchParams(filter).toString()}`;
  const link = "font-medium text-brand-700 hover:underline";
  return (
    <p className="text-sm text-slate-600 print:hidden" title="The answers behind these charts, at most 100,000">
      Export captures:{" "}
      <a href={href("csv")} download className={link}>CSV</a>
      {" · "}
      <a href={href("json")} download className={link}>JSON</a>
    </p>
  );
}
