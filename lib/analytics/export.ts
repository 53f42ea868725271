import "server-only";
import { captureScope, num, type AnalyticsFilter } from "@/lib/analytics/filter";
import { csvLine } from "@/lib/analytics/csv";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { formatDollarsExact } from "@/lib/format";

export const EXPORT_MAX_ROWS = 100_000;
/** Rows read per query; the export pages through the captures by (finishedAt, id). */
const PAGE_SIZE = 1_000;
/** Answers are cut in CSV so a spreadsheet stays usable; JSON keeps them whole. */
export const CSV_ANSWER_CHARS = 1_000;

type Row = {
  id: string;
  finishedAt: Date;
  prompt: string;
  provider: string;
  model: string;
  sample: number;
  mentioned: boolean | null;
  position: number | null;
  sentiment: string | null;
  answer: string | null;
  costMicros: bigint;
};

export const CSV_HEADER = ["capture_id", "finished_at", "prompt", "provider", "model", "sample", "brand_mentioned", "position", "sentiment", "answer", "cost_usd"];

/** One page of the captures in scope, oldest first, after a (finishedAt, id) cursor: the export's rows, and the answers behind a number (MCP). */
export async function capturesInScope(f: AnalyticsFilter, after: { at: Date; id: string } | null, limit: number): Promise<Row[]> {
  const cursor = after ? Prisma.sql`AND (c."finishedAt", c.id) > (${after.at}::timestamp, ${after.id}::uuid)` : Prisma.empty;
  return readDb().$queryRaw<Row[]>`
    SELECT c.id, c."finishedAt", p.text AS prompt, pc.name AS provider, c.model, c.sample,
      m.mentioned, m.position, m.sentiment::text AS sentiment, c."answerText" AS answer, c."costMicros"
    FROM captures c
    JOIN prompts p ON p.id = c."promptId"
    JOIN provider_configs pc ON pc.id = c."providerConfigId"
    LEFT JOIN mentions m ON m."captureId" = c.id AND m.kind = 'brand'
    WHERE ${captureScope(f)} ${cursor}
    ORDER BY c."finishedAt", c.id
    LIMIT ${limit}`;
}

const truncate = (text: string | null) => (text && text.length > CSV_ANSWER_CHARS ? `${text.slice(0, CSV_ANSWER_CHARS)}…` : text);

function csvRow(r: Row): string {
  return csvLine([r.id, r.finishedAt, r.prompt, r.provider, r.model, r.sample, r.mentioned ?? "", r.position, r.sentiment, truncate(r.answer), formatDollarsExact(r.costMicros)]);
}

function jsonRow(r: Row): string {
  return JSON.stringify({
    id: r.id,
    finishedAt: r.finishedAt.toISOString(),
    prompt: r.prompt,
    provider: r.provider,
    model: r.model,
    sample: r.sample,
    brandMentioned: r.mentioned,
    position: r.position,
    sentiment: r.sentiment,
    answer: r.answer,
    costMicros: num(r.costMicros),
  });
}

/**
 * The captures in scope, oldest first, as a stream of CSV or a JSON array: one page is read
 * per pull, so memory stays flat and a closed download stops the reading. At most
 * EXPORT_MAX_ROWS rows (`maxRows` lets tests use a smaller cap).
 */
export function exportCaptures(f: AnalyticsFilter, format: "csv" | "json", maxRows = EXPORT_MAX_ROWS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: Date; id: string } | null = null;
  let sent = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      if (!started) {
        started = true;
        chunk += format === "csv" ? csvLine(CSV_HEADER) : "[";
      }
      const rows = sent < maxRows ? await capturesInScope(f, after, Math.min(PAGE_SIZE, maxRows - sent)) : [];
      for (const r of rows) {
        chunk += format === "csv" ? csvRow(r) : `${sent > 0 ? "," : ""}\n${jsonRow(r)}`;
        sent += 1;
      }
      const last = rows.at(-1);
      if (last) after = { at: last.finishedAt, id: last.id };
      const done = rows.length === 0 || sent >= maxRows || rows.length < PAGE_SIZE;
      if (done && format === "json") chunk += sent > 0 ? "\n]\n" : "]\n";
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}

/** How many rows an export of this scope writes (for the X-Total-Count header). */
export async function exportRowCount(f: AnalyticsFilter, maxRows = EXPORT_MAX_ROWS): Promise<{ rows: number; truncated: boolean }> {
  const [row] = await readDb().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM captures c WHERE ${captureScope(f)} LIMIT ${maxRows + 1}) AS limited`;
  const n = num(row?.n);
  return { rows: Math.min(n, maxRows), truncated: n > maxRows };
}
