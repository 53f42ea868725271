import { PageLink } from "@/components/charts/page-link";
import { Badge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import { displayHost } from "@/lib/analysis/host";

type Page = { url: string; title: string | null; citations: number; captures: number; domain?: string; own?: boolean };

const page: Column<Page> = {
  id: "page",
  header: "Page",
  className: "min-w-48 max-w-xl",
  cell: (p) => <PageLink url={p.url} title={p.title} />,
};
const domain: Column<Page> = {
  id: "domain",
  header: "Domain",
  className: "text-slate-700",
  cell: (p) => (
    <>
      {p.domain && displayHost(p.domain)} {p.own && <Badge tone="green">own</Badge>}
    </>
  ),
};
const counts: Column<Page>[] = [
  { id: "citations", header: "Citations", numeric: true, className: "text-slate-700", cell: (p) => p.citations },
  { id: "answers", header: "Answers", numeric: true, className: "text-slate-700", cell: (p) => p.captures },
];
const withDomain = [page, domain, ...counts];
const withoutDomain = [page, ...counts];

/**
 * Cited pages as a table: each page's title linked (its address when it has none, the address
 * below), its domain when asked for, how often it was cited and in how many answers.
 */
export function PagesTable({ pages, showDomain = false }: { pages: Page[]; showDomain?: boolean }) {
  return <DataTable rows={pages} columns={showDomain ? withDomain : withoutDomain} rowKey={(p) => p.url} />;
}
