// Column definitions for components/ui/data-table.tsx: a small spec that call sites write, turned
// into TanStack Table column defs here. Kept free of React rendering so it is unit-tested without
// a DOM (table-columns.test.ts).
import {
  createPaginatedRowModel,
  createSortedRowModel,
  metaHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
  type SortFn,
} from "@tanstack/react-table";
import type { ReactNode } from "react";

/** How a column looks; carried to the renderer as the TanStack column's `meta`. */
export type ColumnLook = {
  /** Right-aligned with tabular figures: counts, money, percentages, durations. */
  numeric?: boolean;
  align?: "left" | "center" | "right";
  /** The cell names its row: rendered as `<th scope="row">`. */
  rowHeader?: boolean;
  /** Extra classes on this column's body cells (widths, truncation, colours). */
  className?: string;
  /** Extra classes on the header cell. */
  headerClassName?: string;
  /** A tooltip on the header, for abbreviated headers. */
  headerTitle?: string;
  /** The header names the column for screen readers only (a column of buttons). */
  hideHeader?: boolean;
};

export type SortValue = string | number | null | undefined;

export type Column<T extends RowData> = ColumnLook & {
  /** Stable id: the sorting state and React keys use it. */
  id: string;
  /** The header's content (see `hideHeader`). */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value; null and undefined always sort last. */
  sortBy?: (row: T) => SortValue;
  /** The first click sorts descending (counts and shares: the biggest first). */
  sortDescFirst?: boolean;
};

export const dataTableFeatures = tableFeatures({
  columnMeta: metaHelper<ColumnLook>(),
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
});
export type DataTableFeatures = typeof dataTableFeatures;

/** Ascending order of two sort values: numbers by size, text by the reader's collation. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

/**
 * The TanStack column defs for a list of column specs: ids, sorting and looks. Headers and cells
 * are rendered from the specs by calling them (data-table.tsx), not through TanStack's templates:
 * those render a function as a component, so a column list made during render would remount
 * every cell (and lose focus and pending state) on each render.
 */
export function toColumnDefs<T extends RowData>(columns: Column<T>[]): ColumnDef<DataTableFeatures, T>[] {
  return columns.map(({ id, sortBy, sortDescFirst, header: _header, cell: _cell, ...look }) => ({
    id,
    meta: look,
    ...(sortBy
      ? {
          // null becomes undefined so that `sortUndefined: "last"` keeps it last in both directions.
          accessorFn: (row: T) => sortBy(row) ?? undefined,
          sortFn: ((rowA, rowB, columnId) => compareSortValues(rowA.getValue<SortValue>(columnId), rowB.getValue<SortValue>(columnId))) satisfies SortFn<DataTableFeatures, T>,
          sortUndefined: "last" as const,
          sortDescFirst: sortDescFirst ?? false,
          enableSorting: true,
        }
      : { enableSorting: false }),
  }));
}

/** The column of row buttons: a header only screen readers read, right-aligned, never wrapped. */
export function actionsColumn<T extends RowData>(cell: (row: T) => ReactNode, label = "Actions"): Column<T> {
  return { id: "actions", header: label, hideHeader: true, cell, align: "right", className: "whitespace-nowrap" };
}

/** The value of `aria-sort` on a sortable column's header. */
export function ariaSort(sorted: false | "asc" | "desc"): "ascending" | "descending" | "none" {
  return sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none";
}

/** The classes that align a column's cells, header included: numbers to the right. */
export function alignClass(look: ColumnLook | undefined): string {
  const align = look?.align ?? (look?.numeric ? "right" : "left");
  return align === "right" ? "text-right" : align === "center" ? "text-center" : "text-left";
}
