import "server-only";
import { createGunzip } from "node:zlib";
import { pipeline, Readable } from "node:stream";
import { assertStillCan, type ActingMember } from "@/lib/api-keys/api-keys";
import { canImportTraffic } from "@/lib/permissions/permissions";
import { UserError } from "@/lib/errors";
import { normalizeHost } from "@/lib/analysis/host";
import { classifyUserAgent } from "@/lib/traffic/classify";
import { detectFormat, parseCloudflare, parseCombined, parseCsv, parseNetlify, parseVercel, readCsvHeader, type LineResult, type LogFormat } from "@/lib/traffic/formats";
import { HitWriter } from "@/lib/traffic/hit-writer";
import { IdempotencyMismatchError } from "@/lib/idempotency";
import { claimImport, finishImport, interruptImport, LineHash, recordChunk, renewEndedImport, renewLease, type ClaimedImport } from "@/lib/traffic/import-record";
import { siteOf } from "@/lib/analysis/citations";
import { ownDomains, storedRanges, type StoredHit } from "@/lib/traffic/store";
import { RangeVerifier, shippedRanges } from "@/lib/traffic/verify";

/** Hits per statement; a transaction writes many (HitWriter). */
const BATCH = 5_000;
/** Longest line read; the rest of a longer one is dropped. */
const MAX_LINE = 64 * 1024;
/** Errors listed in a report; the rest are only counted. */
const LISTED_ERRORS = 100;
/** Longest path kept (a longer one is cut): the rollup's key must fit a btree entry. */
const MAX_PATH = 1_000;
// PostgreSQL stores no NUL; other control characters in a path are a corrupted line.
const CONTROL = /[\u0000-\u001f\u007f]/;

export type ImportReport = {
  format: LogFormat | null;
  lines: number;
  /** Requests read from the lines. */
  requests: number;
  /** Requests of a known crawler to an own domain, stored. */
  stored: number;
  skipped: { otherHost: number; notCrawler: number };
  byCrawler: Record<string, { verified: number; unverified: number; unchecked: number }>;
  errorCount: number;
  /** The first errors, with their 1-based line numbers. */
  errors: { line: number; message: string }[];
};

export class TooLargeError extends UserError {
  override readonly status = 413;
  override readonly code = "payload_too_large";
  constructor(
    readonly maxBytes: number,
    /** What the import had read and stored when the limit was reached (set by importTrafficLog); `keyed`: it had an Idempotency-Key. */
    readonly imported?: { lines: number; stored: number; keyed?: boolean },
  ) {
    const limit = `The log is larger than ${Math.round(maxBytes / 1e6)} MB (counted after gzip is undone)`;
    super(
      imported
        ? `${limit}. Its first ${imported.lines.toLocaleString("en-US")} lines were imported (${imported.stored.toLocaleString("en-US")} hits stored): import the rest from line ${(imported.lines + 1).toLocaleString("en-US")} on, split into parts under the limit${imported.keyed ? ", each with an Idempotency-Key of its own (sent again, this log would stop at the same line)" : ""}.`
        : `${limit}; split it.`,
    );
  }
}

/**
 * The text lines of a byte stream, gunzipped when it starts with gzip's magic bytes (or when the
 * caller says it is gzip), refusing more than maxBytes of text.
 */
export async function* linesOf(source: AsyncIterable<Uint8Array>, options: { gzip?: boolean; maxBytes: number }): AsyncGenerator<string> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const head = Buffer.from(first.value);
  const gzip = options.gzip || (head[0] === 0x1f && head[1] === 0x8b);
  async function* replay() {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  // pipeline, not pipe: when the reader stops (too large, an error) both streams are destroyed.
  const bytes: AsyncIterable<Uint8Array> = gzip ? pipeline(Readable.from(replay()), createGunzip(), () => {}) : replay();
  const decoder = new TextDecoder();
  const trimmed = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);
  let total = 0;
  // The unfinished last line; kept to MAX_LINE characters, so a file without line breaks costs
  // no more than that (the parser then reports the cut line).
  let rest = "";
  for await (const chunk of guardGzip(bytes)) {
    total += chunk.byteLength;
    if (total > options.maxBytes) throw new TooLargeError(options.maxBytes);
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      // Cut as a line without its break is (below), so a line reads the same however the bytes came.
      yield trimmed((rest + text.slice(start, end)).slice(0, MAX_LINE));
      rest = "";
      start = end + 1;
    }
    if (rest.length < MAX_LINE) rest = (rest + text.slice(start)).slice(0, MAX_LINE);
  }
  rest = (rest + decoder.decode()).slice(0, MAX_LINE);
  if (rest) yield trimmed(rest);
}

/** The gzip stream broke off: the lines before it were read. */
class CorruptGzipError extends UserError {}

/** zlib's errors (a truncated or corrupt file) as a message for the user. */
async function* guardGzip(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* bytes;
  } catch (error) {
    if (typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("Z_")) throw new CorruptGzipError((error as Error).message);
    throw error;
  }
}

/** Reads the rest of a format: the CSV reader needs its header line. */
function lineReader(format: LogFormat, header: string): ((line: string) => LineResult) | { error: string } {
  if (format === "combined") return parseCombined;
  if (format === "cloudflare") return parseCloudflare;
  if (format === "vercel") return parseVercel;
  if (format === "netlify") return parseNetlify;
  const columns = readCsvHeader(header);
  if ("error" in columns) return columns;
  return (line) => parseCsv(line, columns);
}

/**
 * Imports an access log into the workspace: every line parsed, each request classified by its
 * user agent, verified against the crawler's published ranges, kept only when it is a known
 * crawler's and its host is one of the workspace's own domains, and stored with its rollup in
 * batches. A line that cannot be read is reported with its number and the others are kept.
 * `host` stands in for lines that carry none (combined logs); with one own domain, it is that one.
 * With an `idempotencyKey` the same log sent again (a lost response, an upload broken off) stores
 * only the lines not yet stored, and after the import ended returns its report
 * (import-record.ts); without one, importing the same file twice counts its hits twice.
 */
export async function importTrafficLog(
  workspaceId: string,
  lines: AsyncIterable<string>,
  options: { format?: LogFormat; host?: string; acting?: ActingMember; idempotencyKey?: string } = {},
): Promise<ImportReport> {
  const domains = await ownDomains(workspaceId);
  const own = new Set(domains.map(siteOf));
  if (!own.size) throw new UserError("This workspace has no own domains yet: add them to a brand (Brands) first; only hits for them are counted.");
  const givenHost = options.host ? normalizeHost(options.host) : null;
  // A line without a host belongs to the one given, or to the workspace's only domain as the brand
  // lists it (shop.acme.com, not its site acme.com); a keyed import resumed keeps the one it began with.
  const only = new Set(domains.map((d) => normalizeHost(d)));
  const host = givenHost ?? (only.size === 1 ? [...only][0]! : null);
  const claim = options.idempotencyKey ? await claimImport<ImportReport>(workspaceId, options.idempotencyKey, { format: options.format ?? null, host: givenHost }, host) : null;
  if (claim?.kind === "ended") {
    const report = await replayEnded(lines, claim.report, claim.bodyHash);
    await renewEndedImport(claim.id);
    return report;
  }
  if (!claim) return readLog(workspaceId, own, lines, { ...options, host }, null);
  try {
    return await readLog(workspaceId, own, lines, { ...options, host: claim.fallbackHost === undefined ? host : claim.fallbackHost }, claim);
  } catch (error) {
    await interruptImport(claim).catch(() => {});
    throw error;
  }
}

/** The import ended before: its report, once the body is seen to be the same log. */
async function replayEnded(lines: AsyncIterable<string>, report: ImportReport, bodyHash: string): Promise<ImportReport> {
  const hash = new LineHash();
  try {
    for await (const line of lines) hash.add(line);
  } catch (error) {
    // The log it ended with broke off there too (its report says where); any other error is this request's.
    if (!(error instanceof CorruptGzipError)) throw error;
  }
  if (hash.digest() !== bodyHash) throw new IdempotencyMismatchError("This Idempotency-Key was already used for another log. Use a new key for a new log.");
  return report;
}

/** How far a batch of hits takes a keyed import: the lines it completes and their hash. */
type ImportMark = { lines: number; hash: string };

async function readLog(
  workspaceId: string,
  own: Set<string>,
  lines: AsyncIterable<string>,
  /** `host`: the host of a line without one (the one given, or the workspace's only domain). */
  options: { format?: LogFormat; host: string | null; acting?: ActingMember },
  claim: ClaimedImport | null,
): Promise<ImportReport> {
  // A keyed import sent again reads its first lines again (the report counts the whole log) but
  // stores only the hits of the lines after those already stored, once those are seen to match.
  const lineHash = claim ? new LineHash() : null;
  const storedThrough = claim?.committedLines ?? 0;
  let cutShort = false;
  const differentLog = () => new IdempotencyMismatchError(`This Idempotency-Key was already used for another log: its first ${storedThrough.toLocaleString("en-US")} lines, already stored, differ from this one's. Use a new key for a new log.`);
  const verifier = new RangeVerifier(new Map([...shippedRanges(), ...(await storedRanges())]));
  // A log names a few hosts millions of times: each is normalized and looked up once.
  const hosts = new Map<string, string | null>();
  /** The host as stored (normalized), or null when it is not one of the workspace's sites. */
  const ownDomain = (rawHost: string) => {
    let domain = hosts.get(rawHost);
    if (domain === undefined) {
      const normalized = normalizeHost(rawHost);
      domain = own.has(siteOf(normalized)) ? normalized : null;
      if (hosts.size >= 10_000) hosts.clear();
      hosts.set(rawHost, domain);
    }
    return domain;
  };

  const report: ImportReport = { format: options.format ?? null, lines: 0, requests: 0, stored: 0, skipped: { otherHost: 0, notCrawler: 0 }, byCrawler: {}, errorCount: 0, errors: [] };
  // The key's lease is renewed while lines come (import-record.ts).
  const lease = claim ? renewLease(claim, () => report.lines) : null;
  const fail = (line: number, message: string) => {
    report.errorCount += 1;
    if (report.errors.length < LISTED_ERRORS) report.errors.push({ line, message });
  };
  let read: ((line: string) => LineResult) | null = null;
  let batch: StoredHit[] = [];
  // Batches are written while the next ones are read, so parsing (Node) and writing (PostgreSQL)
  // use both cores; a failed write stops the import at the next batch. The writer commits in
  // chunks of many batches, adding each chunk to the rollups once (hit-writer.ts).
  // Each chunk commits only while its importer may still import (a member removed, demoted or
  // whose key was revoked during a long upload stores nothing more; assertStillCan).
  const acting = options.acting;
  const writer = new HitWriter<ImportMark>(workspaceId, {}, async (tx, chunk) => {
    // The chunk's lines are recorded as stored in the same transaction as its hits.
    if (claim && chunk.mark) await recordChunk(tx, claim, { hits: chunk.hits, ...chunk.mark });
    if (acting) await assertStillCan(tx, acting, canImportTraffic, "You can no longer import traffic logs in this workspace.");
  });
  // A batch ends with a line (all of its hits), so a chunk's mark says which lines it stored.
  const flush = async () => {
    const hits = batch;
    batch = [];
    await writer.add(hits, lineHash ? { lines: report.lines, hash: lineHash.digest() } : undefined);
  };

  try {
    for await (const line of lines) {
      report.lines += 1;
      if (lineHash) {
        lineHash.add(line);
        if (report.lines === storedThrough && lineHash.digest() !== claim!.committedHash) throw differentLog();
      }
      if (!line.trim()) continue;
      if (!read) {
        const format = options.format ?? detectFormat(line);
        if (!format) throw new UserError(`Line ${report.lines}: not a log format Beacon reads (combined, cloudflare, vercel, netlify, csv); pass the format to say which.`);
        report.format = format;
        const reader = lineReader(format, line);
        if ("error" in reader) throw new UserError(`Line ${report.lines}: ${reader.error}`);
        read = reader;
        if (format === "csv") continue;
      }
      const result = read(line);
      if ("error" in result) {
        fail(report.lines, result.error);
        continue;
      }
      for (const hit of result.hits) {
        report.requests += 1;
        const crawler = classifyUserAgent(hit.userAgent);
        if (!crawler) {
          report.skipped.notCrawler += 1;
          continue;
        }
        const rawHost = hit.host ?? options.host;
        if (!rawHost) {
          fail(report.lines, "the line has no host and the workspace has several domains: pass host to say which site the log is of");
          continue;
        }
        // PostgreSQL stores no NUL (the chunk failed, a 500), and a host with control characters is no host.
        if (CONTROL.test(rawHost)) {
          fail(report.lines, "the host contains a control character");
          continue;
        }
        const domain = ownDomain(rawHost);
        if (domain === null) {
          report.skipped.otherHost += 1;
          continue;
        }
        if (CONTROL.test(hit.path)) {
          fail(report.lines, "the path contains a control character");
          continue;
        }
        const verification = verifier.verify(crawler.name, hit.ip);
        const counts = (report.byCrawler[crawler.name] ??= { verified: 0, unverified: 0, unchecked: 0 });
        counts[verification] += 1;
        if (report.lines > storedThrough) batch.push({ at: hit.at, domain, path: hit.path.slice(0, MAX_PATH), crawler: crawler.name, verification, status: hit.status });
      }
      if (batch.length >= BATCH) await flush();
    }
  } catch (error) {
    lease?.stop();
    if (error instanceof TooLargeError) {
      // Chunks before the limit have committed: the lines read are all stored (the batch in hand
      // too), and the answer says up to which line, so the rest can be imported without counting
      // any line twice.
      await flush();
      await writer.end();
      throw new TooLargeError(error.maxBytes, { lines: report.lines, stored: writer.stored + (claim?.committedHits ?? 0), keyed: claim !== null });
    }
    if (!(error instanceof CorruptGzipError)) {
      // The chunk in flight ends before the error is passed on: no write outlives the import. It
      // commits what was read before the error, as a failure of the log itself (below) does.
      await writer.end().catch(() => {});
      throw error;
    }
    fail(report.lines + 1, `the gzip data is corrupt or cut short here (${error.message}); the lines before were read`);
    cutShort = true;
  }
  lease?.stop();
  await flush();
  await writer.end();
  // Shorter than the lines already stored (also when its gzip broke off before them): another log.
  if (report.lines < storedThrough) throw differentLog();
  if (!claim) return { ...report, stored: writer.stored };
  // A gzip cut short is a log that broke off: its import stays open, so the whole file sent again
  // with the key stores the rest (ended, it answered the whole file with a 422, "another log").
  if (cutShort) {
    await interruptImport(claim);
    return { ...report, stored: writer.stored + claim.committedHits };
  }
  return finishImport(claim, report, lineHash!.digest());
}
