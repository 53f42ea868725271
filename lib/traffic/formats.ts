// Access log lines in the formats sites have, each read into the few fields a crawler hit needs.
// Pure and line by line, so a file of any size streams through: a line that cannot be read is an
// error naming why (the importer adds its line number), and the next line is read on its own.
//
//   combined    nginx/Apache "combined": ip - user [time] "GET /path HTTP/1.1" status bytes "referer" "agent"
//   cloudflare  Cloudflare Logpush http_requests, NDJSON: ClientRequestHost, ClientRequestURI,
//               ClientRequestUserAgent, ClientIP, EdgeStartTimestamp, EdgeResponseStatus
//   vercel      Vercel log drain, JSON (an array per delivery, or NDJSON): proxy.{host, path,
//               userAgent (an array), clientIp, statusCode, timestamp}
//   netlify     Netlify log drain traffic logs, JSON/NDJSON: url (the path), user_agent,
//               client_ip, status_code, timestamp; log_type "traffic" (others are not requests)
//   csv         a header line naming timestamp, host, path, status, user_agent and ip (any order)

export const LOG_FORMATS = ["combined", "cloudflare", "vercel", "netlify", "csv"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** One request read from a line. host null: the format has none (combined), the importer supplies it. */
export type LogHit = { at: Date; host: string | null; path: string; status: number; userAgent: string; ip: string | null };

/** What a line gave: hits (a Vercel array gives several), nothing (a header, a non-request record), or an error. */
export type LineResult = { hits: LogHit[] } | { error: string };

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** "10/Oct/2026:13:55:36 +0200" as nginx and Apache write $time_local. */
export function parseClfTime(text: string): Date | null {
  const m = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const month = MONTHS[m[2]!];
  if (month === undefined) return null;
  const offset = (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000;
  const at = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) - offset;
  return valid(new Date(at));
}

/**
 * A time a log can hold: years 1 to 9999. Past them JavaScript still makes a Date (a nanosecond
 * timestamp read as milliseconds lands in year 65347), but it prints an extended year that
 * PostgreSQL refuses, which failed the line's whole batch instead of reporting the line.
 */
const valid = (d: Date) => {
  const year = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || year < 1 || year > 9999 ? null : d;
};

/** A number in seconds, milliseconds, microseconds or nanoseconds since 1970 (by its size), or an RFC 3339 text (UTC when it names no zone). */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    const ms = value > 1e17 ? value / 1e6 : value > 1e14 ? value / 1e3 : value > 1e11 ? value : value * 1000;
    return valid(new Date(ms));
  }
  if (typeof value === "string" && value.trim()) {
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text)) return parseTimestamp(Number(text));
    if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
    // A date and time without a zone is UTC, as logs write it: JavaScript would read it in the
    // server's time zone, so one log would land on other days on another machine.
    const local = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/.exec(text);
    return valid(new Date(local ? `${local[1]}T${local[2]}Z` : text));
  }
  return null;
}

/** The path of a request target without its query and fragment; the host when the target is absolute. */
export function splitTarget(target: string): { host: string | null; path: string } | null {
  let host: string | null = null;
  let rest = target;
  const absolute = /^https?:\/\/([^/?#]*)(.*)$/i.exec(target);
  if (absolute) {
    host = absolute[1]!;
    rest = absolute[2] || "/";
  }
  if (!rest.startsWith("/")) return null;
  const end = rest.search(/[?#]/);
  return { host, path: end === -1 ? rest : rest.slice(0, end) };
}

// The quoted fields allow the escapes nginx (\x22) and Apache (\") write for a quote inside.
const COMBINED = /^(\S+) \S+ \S+ \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) \S+(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?/;

const unescape = (text: string) =>
  text.includes("\\") ? text.replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_m, hex: string | undefined, ch: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : ch!)) : text;

export function parseCombined(line: string): LineResult {
  const m = COMBINED.exec(line);
  if (!m) return { error: "not a combined log line (ip - user [time] \"request\" status bytes \"referer\" \"user agent\")" };
  const at = parseClfTime(m[2]!);
  if (!at) return { error: `unreadable time [${m[2]}]` };
  const request = unescape(m[3]!).split(" ");
  const target = request.length >= 2 ? splitTarget(request[1]!) : null;
  if (!target) return { error: `no path in the request "${m[3]!.slice(0, 80)}"` };
  return { hits: [{ at, host: target.host, path: target.path, status: Number(m[4]), userAgent: unescape(m[6] ?? ""), ip: m[1]! }] };
}

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === "string" ? v : null);
const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : typeof v === "string" && /^\d{3}$/.test(v) ? Number(v) : null);

function hitFrom(fields: { at: unknown; host: unknown; target: unknown; status: unknown; userAgent: unknown; ip: unknown }, names: Record<keyof typeof fields, string>): LineResult {
  const at = parseTimestamp(fields.at);
  if (!at) return { error: `${names.at} is missing or not a time` };
  const rawTarget = text(fields.target);
  const target = rawTarget === null ? null : splitTarget(rawTarget);
  if (!target) return { error: `${names.target} is missing or not a path` };
  const status = int(fields.status);
  if (status === null || status < 100 || status > 599) return { error: `${names.status} is missing or not an HTTP status` };
  const host = text(fields.host) ?? target.host;
  return { hits: [{ at, host, path: target.path, status, userAgent: text(fields.userAgent) ?? "", ip: text(fields.ip) }] };
}

function parseJsonLine(line: string): Json | Json[] | { error: string } {
  try {
    const value: unknown = JSON.parse(line);
    if (Array.isArray(value)) return value.filter((v): v is Json => typeof v === "object" && v !== null);
    if (typeof value === "object" && value !== null) return value as Json;
    return { error: "not a JSON object" };
  } catch {
    return { error: "not valid JSON" };
  }
}

const isError = (v: unknown): v is { error: string } => typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { error?: unknown }).error === "string" && Object.keys(v).length === 1;

function eachRecord(line: string, read: (record: Json) => LineResult): LineResult {
  const parsed = parseJsonLine(line);
  if (isError(parsed)) return parsed;
  const hits: LogHit[] = [];
  for (const record of Array.isArray(parsed) ? parsed : [parsed]) {
    const result = read(record);
    if ("error" in result) return result;
    hits.push(...result.hits);
  }
  return { hits };
}

export const parseCloudflare = (line: string): LineResult =>
  eachRecord(line, (r) =>
    hitFrom(
      { at: r.EdgeStartTimestamp, host: r.ClientRequestHost, target: r.ClientRequestURI, status: r.EdgeResponseStatus, userAgent: r.ClientRequestUserAgent, ip: r.ClientIP },
      { at: "EdgeStartTimestamp", host: "ClientRequestHost", target: "ClientRequestURI", status: "EdgeResponseStatus", userAgent: "ClientRequestUserAgent", ip: "ClientIP" },
    ),
  );

export const parseVercel = (line: string): LineResult =>
  eachRecord(line, (r) => {
    // Build and function output lines carry no proxy: they are not requests.
    const proxy = r.proxy;
    if (typeof proxy !== "object" || proxy === null) return { hits: [] };
    const p = proxy as Json;
    const agent = Array.isArray(p.userAgent) ? p.userAgent.filter((a) => typeof a === "string").join(" ") : p.userAgent;
    return hitFrom(
      { at: p.timestamp ?? r.timestamp, host: p.host ?? r.host, target: p.path, status: p.statusCode, userAgent: agent, ip: p.clientIp },
      { at: "proxy.timestamp", host: "proxy.host", target: "proxy.path", status: "proxy.statusCode", userAgent: "proxy.userAgent", ip: "proxy.clientIp" },
    );
  });

export const parseNetlify = (line: string): LineResult =>
  eachRecord(line, (r) => {
    if (r.log_type !== undefined && r.log_type !== "traffic") return { hits: [] };
    return hitFrom(
      { at: r.timestamp, host: r.host ?? r.domain, target: r.url, status: r.status_code, userAgent: r.user_agent, ip: r.client_ip },
      { at: "timestamp", host: "host", target: "url", status: "status_code", userAgent: "user_agent", ip: "client_ip" },
    );
  });

/** One CSV record on one line (RFC 4180 quoting: "a, b" and "say ""hi"""). */
export function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = "";
      i += 1;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) return null;
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ",") return null;
      i += 1;
    } else {
      const comma = line.indexOf(",", i);
      if (comma === -1) {
        fields.push(line.slice(i));
        return fields;
      }
      fields.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}

export const CSV_COLUMNS = ["timestamp", "host", "path", "status", "user_agent", "ip"] as const;
export type CsvHeader = Record<(typeof CSV_COLUMNS)[number], number>;

/** The header's column positions, or why it is not one (ip may be left out). */
export function readCsvHeader(line: string): CsvHeader | { error: string } {
  const names = (splitCsvLine(line.replace(/^\uFEFF/, "")) ?? []).map((n) => n.trim().toLowerCase());
  const header = Object.fromEntries(CSV_COLUMNS.map((c) => [c, names.indexOf(c)])) as CsvHeader;
  const missing = CSV_COLUMNS.filter((c) => c !== "ip" && header[c] === -1);
  return missing.length ? { error: `the CSV header lacks ${missing.join(", ")} (expected ${CSV_COLUMNS.join(",")})` } : header;
}

export function parseCsv(line: string, header: CsvHeader): LineResult {
  const f = splitCsvLine(line);
  if (!f) return { error: "unbalanced quotes" };
  const at = (i: number) => (i === -1 ? undefined : f[i]);
  return hitFrom(
    { at: at(header.timestamp), host: at(header.host) || null, target: at(header.path), status: at(header.status), userAgent: at(header.user_agent), ip: at(header.ip) || null },
    { at: "timestamp", host: "host", target: "path", status: "status", userAgent: "user_agent", ip: "ip" },
  );
}

/** The format of a file from its first non-empty line, or null when none fits. */
export function detectFormat(firstLine: string): LogFormat | null {
  const line = firstLine.trim();
  if (line.startsWith("{") || line.startsWith("[")) {
    const parsed = parseJsonLine(line);
    if (isError(parsed)) return null;
    const record = Array.isArray(parsed) ? parsed[0] : parsed;
    if (!record) return null;
    if ("ClientRequestURI" in record || "EdgeStartTimestamp" in record || "ClientRequestHost" in record) return "cloudflare";
    if ("proxy" in record || "deploymentId" in record) return "vercel";
    if ("log_type" in record || "client_ip" in record || "status_code" in record) return "netlify";
    return null;
  }
  if (!("error" in readCsvHeader(line))) return "csv";
  if (COMBINED.test(line)) return "combined";
  return null;
}
