import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CSV_BOM, csvCell, csvLine, toCsv } from "@/lib/analytics/csv";
import { parseCsv } from "@/tests/support/csv-parse";

/** What a spreadsheet shows for a text cell Beacon wrote: the text, defused when it would run as a formula. */
const shown = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe("csv", () => {
  it("quotes cells with commas, quotes and line breaks and doubles the quotes", () => {
    expect(csvCell('He said "best CRM", twice')).toBe('"He said ""best CRM"", twice"');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("writes numbers, booleans, dates and empty values as spreadsheets expect", () => {
    expect(csvCell(0.25)).toBe("0.25");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(new Date("2025-03-01T12:00:00Z"))).toBe("2025-03-01T12:00:00.000Z");
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvCell("-1 reasons")).toBe("'-1 reasons");
    expect(csvCell(-1)).toBe("-1");
  });

  it("starts a file with the UTF-8 byte-order mark and ends every line with CRLF, header first", () => {
    expect(toCsv(["a", "b"], [[1, "x,y"]])).toBe(`${CSV_BOM}a,b\r\n1,"x,y"\r\n`);
    expect([...new TextEncoder().encode(toCsv(["Straße"], []))].slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("reads back any text a cell holds, quotes, commas and line breaks included, with formulas defused", () => {
    const risky = fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "'", "ß", "Ж", " ");
    const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.array(fc.oneof(risky, fc.string({ maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join("")));
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ""));
        expect(parseCsv(table.map(csvLine).join(""))).toEqual(table.map((row) => row.map(shown)));
      }),
      { numRuns: 2_000 },
    );
  });
});
