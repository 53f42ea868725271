import { constructTable, tableFeatures } from "@tanstack/react-table";
import { storeReactivityBindings } from "@tanstack/table-core/store-reactivity-bindings";
import { describe, expect, test } from "vitest";
import { actionsColumn, alignClass, ariaSort, compareSortValues, dataTableFeatures, toColumnDefs, type Column } from "./table-columns";

type Prompt = { id: string; text: string; answers: number; visibility: number | null };

const prompts: Prompt[] = [
  { id: "a", text: "best crm 10", answers: 12, visibility: 0.4 },
  { id: "b", text: "Best CRM 2", answers: 30, visibility: null },
  { id: "c", text: "agency tools", answers: 7, visibility: 0.9 },
  { id: "d", text: "zapier alternatives", answers: 30, visibility: 0.1 },
];

const columns: Column<Prompt>[] = [
  { id: "text", header: "Prompt", cell: (p) => p.text, sortBy: (p) => p.text, rowHeader: true },
  { id: "answers", header: "Answers", cell: (p) => p.answers, numeric: true, sortBy: (p) => p.answers, sortDescFirst: true },
  { id: "visibility", header: "Visibility", cell: (p) => p.visibility, numeric: true, sortBy: (p) => p.visibility, sortDescFirst: true },
  { id: "note", header: "Note", cell: () => "—" },
  actionsColumn<Prompt>(() => "Edit"),
];

/** The table the component renders, without React: the ids of the rows it shows, in order. */
function tableOf(options: { sorting?: { id: string; desc: boolean }[]; pageSize?: number; pageIndex?: number } = {}) {
  const table = constructTable({
    // What React's useTable brings in the app: state that outlives one call.
    features: tableFeatures({ ...dataTableFeatures, coreReactivityFeature: storeReactivityBindings() }),
    columns: toColumnDefs(columns),
    data: prompts,
    getRowId: (p) => p.id,
    enableSortingRemoval: false,
    manualPagination: !options.pageSize,
    initialState: { sorting: options.sorting ?? [], pagination: { pageIndex: options.pageIndex ?? 0, pageSize: options.pageSize ?? 10 } },
  });
  return { table, ids: () => table.getRowModel().rows.map((r) => r.id) };
}

describe("compareSortValues", () => {
  test("orders numbers by size and text as a reader would (case-blind, numbers inside text by value)", () => {
    expect([10, 2, 33, -1].sort(compareSortValues)).toEqual([-1, 2, 10, 33]);
    expect(["b 10", "B 2", "a"].sort(compareSortValues)).toEqual(["a", "B 2", "b 10"]);
  });

  test("puts missing values last", () => {
    expect([null, 3, undefined, 1].sort(compareSortValues)).toEqual([1, 3, null, undefined]);
  });
});

describe("toColumnDefs", () => {
  test("sorts by a column's sortBy value in both directions, with missing values last either way", () => {
    expect(tableOf({ sorting: [{ id: "visibility", desc: false }] }).ids()).toEqual(["d", "a", "c", "b"]);
    expect(tableOf({ sorting: [{ id: "visibility", desc: true }] }).ids()).toEqual(["c", "a", "d", "b"]);
    expect(tableOf({ sorting: [{ id: "text", desc: false }] }).ids()).toEqual(["c", "b", "a", "d"]);
  });

  test("keeps the data's order among equal values", () => {
    expect(tableOf({ sorting: [{ id: "answers", desc: true }] }).ids()).toEqual(["b", "d", "a", "c"]);
  });

  test("only columns with sortBy can sort; descending-first columns start descending", () => {
    const { table } = tableOf();
    const canSort = Object.fromEntries(table.getAllLeafColumns().map((c) => [c.id, c.getCanSort()]));
    expect(canSort).toEqual({ text: true, answers: true, visibility: true, note: false, actions: false });
    const answers = table.getColumn("answers")!;
    answers.toggleSorting();
    expect(answers.getIsSorted()).toBe("desc");
    answers.toggleSorting();
    expect(answers.getIsSorted()).toBe("asc");
    const text = table.getColumn("text")!;
    text.toggleSorting();
    expect(text.getIsSorted()).toBe("asc");
  });

  test("pages the sorted rows when paged in the browser, and shows every row otherwise", () => {
    expect(tableOf({ sorting: [{ id: "answers", desc: false }], pageSize: 3 }).ids()).toEqual(["c", "a", "b"]);
    expect(tableOf({ sorting: [{ id: "answers", desc: false }], pageSize: 3, pageIndex: 1 }).ids()).toEqual(["d"]);
    expect(tableOf({ sorting: [{ id: "answers", desc: false }] }).ids()).toHaveLength(4);
  });

  test("carries how a column looks to the renderer", () => {
    const { table } = tableOf();
    expect(table.getColumn("answers")!.columnDef.meta).toEqual({ numeric: true });
    expect(table.getColumn("text")!.columnDef.meta).toEqual({ rowHeader: true });
    expect(table.getColumn("actions")!.columnDef.meta).toEqual({ hideHeader: true, align: "right", className: "whitespace-nowrap" });
  });
});

describe("look", () => {
  test("numbers align right unless a column says otherwise", () => {
    expect(alignClass({ numeric: true })).toBe("text-right");
    expect(alignClass({ numeric: true, align: "center" })).toBe("text-center");
    expect(alignClass(undefined)).toBe("text-left");
  });

  test("aria-sort names the direction, and none for a sortable column not sorted by", () => {
    expect([ariaSort("asc"), ariaSort("desc"), ariaSort(false)]).toEqual(["ascending", "descending", "none"]);
  });
});
