import { Badge } from "@/components/ui/card";

type Page = { url: string; title: string | null; citations: number; captures: number; domain?: string; own?: boolean };

/**
 * Cited pages as a table: each page's title linked (its address when it has none, the address
 * below), its domain when asked for, how often it was cited and in how many answers.
 */
export function PagesTable({ pages, showDomain = false }: { pages: Page[]; showDomain?: boolean }) {
  return (
    <table className="min-w-full divide-y divide-slate-200 text-sm">
      <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="px-4 py-3">Page</th>
          {showDomain && <th scope="col" className="px-4 py-3">Domain</th>}
          <th scope="col" className="px-4 py-3 text-right">Citations</th>
          <th scope="col" className="px-4 py-3 text-right">Answers</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {pages.map((p) => (
          <tr key={p.url} className="hover:bg-slate-50">
            <td className="max-w-xl px-4 py-3">
              <a href={p.url} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-brand-700 hover:underline">
                {p.title || p.url}
              </a>
              {p.title && <span className="block truncate text-xs text-slate-500">{p.url}</span>}
            </td>
            {showDomain && (
              <td className="px-4 py-3 text-slate-700">
                {p.domain} {p.own && <Badge tone="green">own</Badge>}
              </td>
            )}
            <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.citations}</td>
            <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.captures}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
