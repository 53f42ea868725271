// CSV as spreadsheets read it (RFC 4180). Shared by the chart "CSV" buttons (in the browser) and
// the captures export (on the server), so both quote the same way.

export type CsvValue = string | number | boolean | null | undefined | Date;

/**
 * One cell: quoted when it holds a comma, quote or line break, quotes doubled. Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "string") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: CsvValue[]) => `${values.map(csvCell).join(",")}\r\n`;

export function toCsv(header: string[], rows: CsvValue[][]): string {
  return csvLine(header) + rows.map(csvLine).join("");
}
