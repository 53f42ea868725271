import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "@/lib/analytics/csv";

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

  it("ends every line with CRLF, header first", () => {
    expect(toCsv(["a", "b"], [[1, "x,y"]])).toBe('a,b\r\n1,"x,y"\r\n');
  });
});
