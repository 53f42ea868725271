// CSV as spreadsheets read it (RFC 4180). Shared by the chart "CSV" buttons (in the browser) and
// the captures export (on the server), so both quote the same way and both start with the BOM.

export type CsvValue = string | number | boolean | null | undefined | Date;

/**
 * The UTF-8 byte-order mark every CSV Beacon writes starts with: without it Excel reads the file
 * in the machine's legacy code page and German or Russian text turns into mojibake.
 */
export const CSV_BOM = "\uFEFF";

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

/** A whole CSV file: the BOM, the header, then the rows. */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join("");
}
