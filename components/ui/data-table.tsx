"use client";
// The one table of the app: column specs (./table-columns.ts) rendered through TanStack Table,
// with sortable headers where a column says so, client paging for long client-side lists
// (server-paged lists render ./pagination.tsx themselves), an empty state, right-aligned tabular
// numbers, and a horizontal scroll inside its own box with the first column sticky and a fade
// where columns lie past the right edge, so a wide table never widens the page on a phone.
import { useTable, type ReactTable, type RowData } from "@tanstack/react-table";
import { useMemo, useRef, type ReactNode } from "react";
import { Pagination } from "./pagination";
import { ScrollFade, useScrollEdges } from "./scroll-edges";
import { alignClass, ariaSort, dataTableFeatures, toColumnDefs, type Column, type ColumnLook, type DataTableFeatures } from "./table-columns";

export type DataTableOptions<T extends RowData> = {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** The sort shown first; the column must have `sortBy`. */
  initialSort?: { id: string; desc: boolean };
  /** Page the rows in the browser, this many at a time. */
  pageSize?: number;
};

export type DataTableModel<T extends RowData> = { table: ReactTable<DataTableFeatures, T>; columns: Column<T>[] };

/**
 * The table state for `DataTableView`, for a caller that also needs the rows in their sorted
 * order (a CSV of what the table shows). Columns are memoised by identity: pass a stable array
 * when the table pages, or every render recomputes its rows.
 */
export function useDataTable<T extends RowData>({ rows, columns, rowKey, initialSort, pageSize }: DataTableOptions<T>): DataTableModel<T> {
  const defs = useMemo(() => toColumnDefs(columns), [columns]);
  const table = useTable({
    features: dataTableFeatures,
    columns: defs,
    data: rows,
    getRowId: (row) => rowKey(row),
    enableSortingRemoval: false,
    enableMultiSort: false,
    manualPagination: !pageSize,
    initialState: { sorting: initialSort ? [initialSort] : [], ...(pageSize ? { pagination: { pageIndex: 0, pageSize } } : {}) },
  });
  return { table, columns };
}

type Density = "normal" | "dense" | "compact";

export type DataTableViewProps<T extends RowData> = {
  /** The table's accessible name, when the page has more than one table or tests find it by name. */
  label?: string;
  /** A caption for screen readers. */
  caption?: string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** `dense` for wide tables of many columns, `compact` for small tables inside dialogs. */
  density?: Density;
  /** Top-align the cells of rows whose cells hold several lines. */
  alignTop?: boolean;
  /** A totals row drawn with the same columns in `<tfoot>`. */
  footer?: T;
  /** A full-width row under a row (a detail the row's button opens); `id` for its aria-controls. */
  detail?: (row: T) => { id: string; content: ReactNode } | null;
  /** Names the pager of a client-paged table: "prompts", and the pager's landmark name. */
  noun?: string;
  pagerLabel?: string;
  /** Classes on the box around the table and its pager, e.g. negative margins to reach a card's edges. */
  className?: string;
};

const cellPadding: Record<Density, string> = { normal: "px-4 py-3", dense: "px-3 py-2", compact: "py-1 pr-3" };

export function DataTable<T extends RowData>(props: DataTableOptions<T> & DataTableViewProps<T>) {
  return <DataTableView model={useDataTable(props)} {...props} />;
}

export function DataTableView<T extends RowData>({
  model: { table, columns },
  label,
  caption,
  empty,
  density = "normal",
  alignTop = false,
  footer,
  detail,
  noun,
  pagerLabel,
  className = "",
}: DataTableViewProps<T> & { model: DataTableModel<T> }) {
  const total = table.getPrePaginatedRowModel().rows.length;
  const scroller = useRef<HTMLDivElement>(null);
  const { scrolled, moreRight, onScroll } = useScrollEdges(scroller, total > 0 || empty === undefined);
  if (total === 0 && empty !== undefined) return <>{empty}</>;
  const compact = density === "compact";
  const padding = cellPadding[density];
  const { pageIndex, pageSize } = table.state.pagination;
  // The first column stays in view while the rest scrolls sideways; its shadow shows only once
  // something has scrolled under it.
  const sticky = (index: number, background: string) =>
    index === 0 ? `sticky left-0 z-[1] ${background} ${scrolled ? "shadow-[1px_0_0_var(--color-slate-200)]" : ""} max-sm:max-w-[45vw]` : "";
  const bodyBackground = compact ? "bg-surface" : "bg-surface group-hover/row:bg-slate-50";
  const specs = new Map(columns.map((column) => [column.id, column]));
  const cellOf = (look: ColumnLook | undefined, index: number, background: string, content: ReactNode, key: string) => {
    const classes = `${padding} ${alignClass(look)} ${look?.numeric ? "tabular-nums" : ""} ${look?.className ?? ""} ${index === 0 ? sticky(index, background) : "max-sm:max-w-[70vw]"}`;
    return look?.rowHeader ? (
      <th key={key} scope="row" className={classes}>
        {content}
      </th>
    ) : (
      <td key={key} className={classes}>
        {content}
      </td>
    );
  };

  return (
    <div className={className}>
      <div className="relative" data-more-right={moreRight ? "" : undefined}>
        {/* Inline-size containment: the table's width never widens a grid or flex parent, it scrolls
            here. Positioned, so the sr-only headers (absolute) are clipped here too instead of
            widening the page. */}
        <div ref={scroller} className="relative overflow-x-auto [contain:inline-size]" onScroll={onScroll}>
          {/* On phones the table takes its natural width (cells capped) and scrolls, rather than
              squeezing every column to its longest word. */}
          <table aria-label={label} className={`min-w-full max-sm:w-max ${compact ? "text-xs" : "divide-y divide-slate-200 text-sm"}`}>
            {caption && <caption className="sr-only">{caption}</caption>}
            <thead className={`whitespace-nowrap text-left text-xs text-slate-500 ${compact ? "" : "bg-slate-50 font-medium uppercase tracking-wide"}`}>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header, index) => {
                    const look = header.column.columnDef.meta;
                    const sorted = header.column.getIsSorted();
                    const content = specs.get(header.column.id)?.header;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        title={look?.headerTitle}
                        aria-sort={header.column.getCanSort() ? ariaSort(sorted) : undefined}
                        className={`${padding} font-medium ${alignClass(look)} ${look?.headerClassName ?? ""} ${sticky(index, compact ? "bg-surface" : "bg-slate-50")}`}
                      >
                        {look?.hideHeader ? (
                          <span className="sr-only">{content}</span>
                        ) : header.column.getCanSort() ? (
                          <button
                            type="button"
                            className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-slate-900 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-brand-500"
                            onClick={header.column.getToggleSortingHandler()}
                          >
                            {content}
                            <span aria-hidden className={sorted ? "text-slate-500" : "text-slate-300"}>
                              {sorted === "asc" ? "↑" : sorted === "desc" ? "↓" : "↕"}
                            </span>
                          </button>
                        ) : (
                          content
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className="divide-y divide-slate-100">
              {table.getRowModel().rows.map((row) => {
                const more = detail?.(row.original);
                return (
                  <RowWithDetail key={row.id} detail={more} span={columns.length}>
                    <tr className={`group/row ${compact ? "" : "hover:bg-slate-50"} ${alignTop ? "align-top" : ""}`}>
                      {row.getAllCells().map((cell, index) => cellOf(cell.column.columnDef.meta, index, bodyBackground, specs.get(cell.column.id)?.cell(row.original), cell.id))}
                    </tr>
                  </RowWithDetail>
                );
              })}
            </tbody>
            {footer !== undefined && (
              <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-medium">
                <tr>{columns.map((column, index) => cellOf(column, index, "bg-slate-50", column.cell(footer), column.id))}</tr>
              </tfoot>
            )}
          </table>
        </div>
        <ScrollFade show={moreRight} />
      </div>
      {!table.options.manualPagination && (
        <Pagination page={pageIndex + 1} pageSize={pageSize} total={total} onPage={(page) => table.setPageIndex(page - 1)} noun={noun} label={pagerLabel} />
      )}
    </div>
  );
}

function RowWithDetail({ detail, span, children }: { detail: { id: string; content: ReactNode } | null | undefined; span: number; children: ReactNode }) {
  if (!detail) return children;
  return (
    <>
      {children}
      <tr id={detail.id}>
        <td colSpan={span} className="p-0">
          {detail.content}
        </td>
      </tr>
    </>
  );
}
