import { filterSearchParams } from "@/lib/analytics/filter-query";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";

/**
 * "Export captures: Summary CSV · Full CSV with answers · JSON" for the current filter (at most
 * 100,000 answers). The summary is one small row per answer (mentions, competitors, cited
 * domains, tags, market, cost); the full CSV adds the answer text and cited pages, which make
 * most of a file's size.
 */
export function ExportLinks({ filter }: { filter: AnalyticsFilterInput }) {
  const href = (format: "csv" | "json", variant: "summary" | "full") =>
    `/api/exports/captures?format=${format}&variant=${variant}&${filterSearchParams(filter).toString()}`;
  const link = "font-medium text-brand-700 hover:underline";
  return (
    <p className="text-sm text-slate-600 print:hidden">
      Export captures:{" "}
      <a href={href("csv", "summary")} download className={link} title="One row per answer: brand mentioned, position, sentiment, competitors named, cited domains, prompt tags, market, cost. No answer text, so the file stays small.">
        Summary CSV
      </a>
      {" · "}
      <a href={href("csv", "full")} download className={link} title="The summary's columns plus the cited pages and each answer's text: a larger file.">
        Full CSV with answers
      </a>
      {" · "}
      <a href={href("json", "full")} download className={link} title="Everything in the full CSV, as JSON, answers uncut.">
        JSON
      </a>
    </p>
  );
}
