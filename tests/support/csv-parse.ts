// A strict RFC 4180 reader for the tests of Beacon's CSV writer (lib/analytics/csv.ts): it reads
// what a spreadsheet reads and throws on what RFC 4180 forbids (a quote inside an unquoted cell,
// text after a closing quote, an unclosed quote), so a writer that quotes too little fails.
// Records end with CRLF; a leading byte-order mark is not part of the first cell.

export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  for (;;) {
    let cell = "";
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error(`unclosed quote in record ${records.length + 1}`);
        cell += text.slice(i, quote);
        if (text[quote + 1] === '"') {
          cell += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
    } else {
      const end = text.slice(i).search(/,|\r\n|$/) + i;
      cell = text.slice(i, end);
      if (/["\r\n]/.test(cell)) throw new Error(`unquoted cell with a quote or line break in record ${records.length + 1}: ${JSON.stringify(cell)}`);
      i = end;
    }
    record.push(cell);
    if (text[i] === ",") {
      i += 1;
    } else if (text.startsWith("\r\n", i)) {
      records.push(record);
      record = [];
      i += 2;
      if (i === text.length) return records;
    } else if (i === text.length) {
      throw new Error("the last record does not end with CRLF");
    } else {
      throw new Error(`text after a closing quote in record ${records.length + 1}`);
    }
  }
}
