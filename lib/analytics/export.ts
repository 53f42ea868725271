import "server-only";
import { captureScope, num, type AnalyticsFilter } from "@/lib/analytics/filter";
import { CSV_BOM, csvLine } from "@/lib/analytics/csv";
import { marketKey, marketLabel } from "@/lib/analytics/markets";
import type { ExportVariant } from "@/lib/analytics/schemas";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { formatDollarsExact } from "@/lib/format";

export const EXPORT_MAX_ROWS = 100_000;
/** Rows read per query; the export pages through the captures by (finishedAt, id). */
const PAGE_SIZE = 1_000;
/** Excel holds at most 32,767 characters in a cell: a longer answer is cut there in CSV; JSON keeps it whole. */
export const CSV_ANSWER_CHARS = 32_000;
/** How the lists of a CSV cell (tags, competitors, sources) are joined. */
const LIST = "; ";

type Row = {
  id: string;
  finishedAt: Date;
  prompt: string;
  tags: string[];
  /** The prompt's market now (what the filter, its tags and the dashboards group by). */
  country: string | null;
  language: string | null;
  /** The market the question was asked in (its version's), which an edit of the prompt leaves as it was. */
  askedCountry: string | null;
  askedLanguage: string | null;
  provider: string;
  model: string;
  sample: number;
  mentioned: boolean | null;
  position: number | null;
  sentiment: string | null;
  /** The competitors the answer names, by position. */
  competitors: { name: string; position: number | null }[];
  /** The domains the answer cites (not those only retrieved), in the order first cited. */
  citedDomains: string[];
  /** The pages it cites, in order, each once; empty in a summary. */
  citedUrls: string[];
  /** Null in a summary (not read from the database at all). */
  answer: string | null;
  costMicros: bigint;
};

const SUMMARY_HEADER = ["capture_id", "finished_at", "prompt", "prompt_tags", "market", "asked_market", "provider", "model", "sample", "brand_mentioned", "position", "sentiment", "competitors", "cited_domains", "cost_usd"];
/** The full CSV is the summary plus the pages cited and the answer. */
export const CSV_HEADERS: Record<ExportVariant, string[]> = { summary: SUMMARY_HEADER, full: [...SUMMARY_HEADER, "cited_urls", "answer"] };

/**
 * One page of the captures in scope, oldest first, after a (finishedAt, id) cursor: the export's
 * rows, and the answers behind a number (MCP). `withAnswer: false` leaves the answers and cited
 * pages unread, which keeps a summary small and quick.
 */
export async function capturesInScope(f: AnalyticsFilter, after: { at: Date; id: string } | null, limit: number, { withAnswer = true } = {}): Promise<Row[]> {
  const cursor = after ? Prisma.sql`AND (c."finishedAt", c.id) > (${after.at}::timestamp, ${after.id}::uuid)` : Prisma.empty;
  const answer = withAnswer ? Prisma.sql`c."answerText"` : Prisma.sql`NULL::text`;
  const citedUrls = withAnswer
    ? Prisma.sql`(SELECT array_agg(u.url ORDER BY u.first) FROM (
        SELECT ci.url, min(ci.position) AS first FROM citations ci
        WHERE ci."captureId" = c.id AND ci."workspaceId" = c."workspaceId" AND ci."citedInText" GROUP BY ci.url) u)`
    : Prisma.sql`NULL::text[]`;
  return readDb().$queryRaw<Row[]>`
    SELECT c.id, c."finishedAt", v.text AS prompt, p.tags, p.country, p.language, v.country AS "askedCountry", v.language AS "askedLanguage", pc.name AS provider, c.model, c.sample,
      m.mentioned, m.position, m.sentiment::text AS sentiment, ${answer} AS answer, c."costMicros",
      coalesce((SELECT json_agg(json_build_object('name', x.name, 'position', x.position) ORDER BY x.position NULLS LAST, x.name)
        FROM mentions x WHERE x."captureId" = c.id AND x."workspaceId" = c."workspaceId" AND x.kind = 'competitor' AND x.mentioned), '[]') AS competitors,
      coalesce((SELECT array_agg(d.domain ORDER BY d.first) FROM (
        SELECT ci.domain, min(ci.position) AS first FROM citations ci
        WHERE ci."captureId" = c.id AND ci."workspaceId" = c."workspaceId" AND ci."citedInText" GROUP BY ci.domain) d), '{}') AS "citedDomains",
      coalesce(${citedUrls}, '{}') AS "citedUrls"
    FROM captures c
    JOIN prompts p ON p.id = c."promptId"
    JOIN prompt_versions v ON v.id = c."promptVersionId" -- the question as asked
    JOIN provider_configs pc ON pc.id = c."providerConfigId"
    LEFT JOIN mentions m ON m."captureId" = c.id AND m.kind = 'brand'
    WHERE ${captureScope(f)} ${cursor}
    ORDER BY c."finishedAt", c.id
    LIMIT ${limit}`;
}

const truncate = (text: string | null) => (text && text.length > CSV_ANSWER_CHARS ? `${text.slice(0, CSV_ANSWER_CHARS)}…` : text);

/** "DE:de" for JSON; null without a country or language. */
const marketOf = (country: string | null, language: string | null) => (country || language ? marketKey(country, language) : null);
const markets = (r: Row) => ({ market: marketOf(r.country, r.language), askedMarket: marketOf(r.askedCountry, r.askedLanguage) });

/** "HubSpot #1; Pipedrive #3": whom the answer names, and where. */
const competitorsCell = (r: Row) => r.competitors.map((c) => (c.position === null ? c.name : `${c.name} #${c.position}`)).join(LIST);

function csvRow(r: Row, variant: ExportVariant): string {
  const { market, askedMarket } = markets(r);
  const summary = [
    r.id, r.finishedAt, r.prompt, r.tags.join(LIST), market ? marketLabel(market) : "", askedMarket ? marketLabel(askedMarket) : "", r.provider, r.model, r.sample,
    r.mentioned ?? "", r.position, r.sentiment, competitorsCell(r), r.citedDomains.join(LIST), formatDollarsExact(r.costMicros),
  ];
  return csvLine(variant === "full" ? [...summary, r.citedUrls.join(LIST), truncate(r.answer)] : summary);
}

function jsonRow(r: Row, variant: ExportVariant): string {
  const summary = {
    id: r.id,
    finishedAt: r.finishedAt.toISOString(),
    prompt: r.prompt,
    tags: r.tags,
    ...markets(r),
    provider: r.provider,
    model: r.model,
    sample: r.sample,
    brandMentioned: r.mentioned,
    position: r.position,
    sentiment: r.sentiment,
    competitors: r.competitors,
    citedDomains: r.citedDomains,
    costMicros: num(r.costMicros),
  };
  return JSON.stringify(variant === "full" ? { ...summary, citedUrls: r.citedUrls, answer: r.answer } : summary);
}

/**
 * The captures in scope, oldest first, as a stream of CSV (starting with the UTF-8 byte-order
 * mark) or a JSON array: one page is read per pull, so memory stays flat and a closed download
 * stops the reading. At most EXPORT_MAX_ROWS rows (`maxRows` lets tests use a smaller cap).
 */
export function exportCaptures(f: AnalyticsFilter, format: "csv" | "json", variant: ExportVariant = "full", maxRows = EXPORT_MAX_ROWS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: Date; id: string } | null = null;
  let sent = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      if (!started) {
        started = true;
        chunk += format === "csv" ? CSV_BOM + csvLine(CSV_HEADERS[variant]) : "[";
      }
      const rows = sent < maxRows ? await capturesInScope(f, after, Math.min(PAGE_SIZE, maxRows - sent), { withAnswer: variant === "full" }) : [];
      for (const r of rows) {
        chunk += format === "csv" ? csvRow(r, variant) : `${sent > 0 ? "," : ""}\n${jsonRow(r, variant)}`;
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
