// Google AI Overviews and AI Mode through SerpApi (GET /search.json, api_key in the query):
//   AI Overviews: engine=google → `ai_overview` {text_blocks, references}
//     https://serpapi.com/ai-overview ; when Google loads the overview separately it holds only a
//     `page_token`, fetched with a second request, engine=google_ai_overview&page_token=...
//     (https://serpapi.com/google-ai-overview-api; the token expires within minutes).
//   AI Mode: engine=google_ai_mode → top-level `text_blocks` and `references`
//     https://serpapi.com/google-ai-mode-api
// Blocks: paragraph, heading, list (items with title/snippet/list), table, code_block,
// expandable; each may carry `reference_indexes` into `references` {index, title, link, source}.
// Errors: HTTP status + {"error": "..."} (https://serpapi.com/api-status-and-error-codes); a search
// Google returned nothing for is a success with "Google hasn't returned any results for this
// query." in `error` (https://serpapi.com/search-errors).
import { ProviderError } from "@/lib/providers/errors";
import { httpFailure, serpFetch, unreadableBody, type SerpHttpResponse, type SerpSurface } from "@/lib/providers/serp-http";
import type { ProviderRequest, ProviderResponse, Source } from "@/lib/providers/types";

export type SerpApiCredentials = { apiKey?: string; baseURL?: string };

const DEFAULT_BASE_URL = "https://serpapi.com";
const PROVIDER = "SerpApi";

type Block = {
  type?: string;
  title?: string | null;
  snippet?: string | null;
  code?: string | null;
  language?: string | null;
  list?: Block[] | null;
  table?: unknown;
  text_blocks?: Block[] | null;
  reference_indexes?: number[] | null;
  snippet_links?: { link?: string | null; text?: string | null }[] | null;
};
type Reference = { index?: number; title?: string | null; link?: string | null; source?: string | null };
type Overview = { text_blocks?: Block[] | null; references?: Reference[] | null; page_token?: string | null; error?: string };
type Body = { error?: string; search_metadata?: { id?: string; status?: string }; ai_overview?: Overview | null; text_blocks?: Block[] | null; references?: Reference[] | null };

const NO_RESULTS = /hasn't returned any results/i;

/** Country → `gl`, language → `hl`, settings.location → `location` (SerpApi's canonical names). */
export function serpApiParams(engine: string, request: ProviderRequest, apiKey: string): URLSearchParams {
  const params = new URLSearchParams({ engine, q: request.prompt });
  const country = request.country?.trim().toLowerCase();
  if (country) params.set("gl", country === "gb" ? "uk" : country); // Google's own code for the United Kingdom
  const language = request.language?.trim();
  if (language) params.set("hl", language);
  if (typeof request.settings?.location === "string" && request.settings.location.trim()) params.set("location", request.settings.location.trim());
  params.set("api_key", apiKey);
  return params;
}

function cell(value: unknown): string {
  return String(value ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function tableMarkdown(table: unknown): string {
  if (!Array.isArray(table) || !table.length || !table.every(Array.isArray)) return "";
  const rows = table as unknown[][];
  const line = (cells: unknown[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(rows[0]!), line(rows[0]!.map(() => "---")), ...rows.slice(1).map(line)].join("\n");
}

function listMarkdown(items: Block[], depth: number): string {
  return items
    .map((item) => {
      const title = item.title?.trim();
      const snippet = item.snippet?.trim() ?? "";
      const head = `${"  ".repeat(depth)}- ${title ? `**${title}**${snippet ? `: ${snippet}` : ""}` : snippet}`;
      return item.list?.length ? `${head}\n${listMarkdown(item.list, depth + 1)}` : head;
    })
    .join("\n");
}

function blockMarkdown(block: Block): string {
  const snippet = block.snippet?.trim() ?? "";
  switch (block.type) {
    case "heading":
      return snippet ? `### ${snippet}` : "";
    case "list":
      return [snippet, listMarkdown(block.list ?? [], 0)].filter(Boolean).join("\n\n");
    case "table":
      return tableMarkdown(block.table);
    case "code_block":
      return block.code || snippet ? `\`\`\`${block.language ?? ""}\n${block.code ?? snippet}\n\`\`\`` : "";
    default: {
      // paragraph, expandable and whatever SerpApi adds: its text, then nested blocks.
      const title = block.type === "expandable" && block.title?.trim() ? `### ${block.title.trim()}` : "";
      return [title, snippet, serpApiText(block.text_blocks ?? [])].filter(Boolean).join("\n\n");
    }
  }
}

/** The blocks as markdown: paragraphs, headings, lists (nested), tables, code. */
export function serpApiText(blocks: Block[]): string {
  return blocks.map(blockMarkdown).filter(Boolean).join("\n\n");
}

/**
 * References → sources. Cited (citedInText true): a block or list item points at it through
 * `reference_indexes`, or links it inline (`snippet_links`). Only in the reference list: false.
 */
export function serpApiSources(blocks: Block[], references: Reference[]): Source[] {
  const citedIndexes = new Set<number>();
  const inlineLinks = new Map<string, string | undefined>();
  const walk = (block: Block) => {
    for (const i of block.reference_indexes ?? []) citedIndexes.add(i);
    for (const l of block.snippet_links ?? []) if (l.link && !inlineLinks.has(l.link)) inlineLinks.set(l.link, l.text ?? undefined);
    for (const b of [...(block.list ?? []), ...(block.text_blocks ?? [])]) walk(b);
  };
  blocks.forEach(walk);
  const sources = new Map<string, Source>();
  references.forEach((r, position) => {
    if (!r.link || sources.has(r.link)) return;
    const title = r.title || r.source;
    sources.set(r.link, { url: r.link, ...(title ? { title } : {}), citedInText: citedIndexes.has(r.index ?? position) || inlineLinks.has(r.link) });
  });
  for (const [url, text] of inlineLinks) if (!sources.has(url)) sources.set(url, { url, ...(text ? { title: text } : {}), citedInText: true });
  return [...sources.values()];
}

function bodyOf(response: SerpHttpResponse): Body {
  const body = (response.json && typeof response.json === "object" ? response.json : undefined) as Body | undefined;
  if (response.status !== 200) {
    const message = body?.error ?? response.text;
    // 429 is also "your account has run out of searches": no retry helps until the plan renews.
    if (response.status === 429 && /run out of searches/i.test(message)) {
      throw new ProviderError(`${PROVIDER}: ${message.slice(0, 300)}`, { retryClass: "permanent", reason: "quota_exceeded", httpStatus: 429 });
    }
    throw httpFailure(PROVIDER, response, message, body?.search_metadata?.id);
  }
  if (!body) throw unreadableBody(PROVIDER, response);
  if (body.error && !NO_RESULTS.test(body.error)) {
    throw new ProviderError(`${PROVIDER} reported an error: ${body.error.slice(0, 300)}`, { retryClass: "transient", reason: "provider_failed", requestId: body.search_metadata?.id });
  }
  return body;
}

async function search(params: URLSearchParams, credentials: SerpApiCredentials, signal: AbortSignal): Promise<Body> {
  const url = `${(credentials.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "")}/search.json?${params}`;
  return bodyOf(await serpFetch(url, { method: "GET" }, signal, PROVIDER));
}

export async function callSerpApi(surface: SerpSurface, credentials: SerpApiCredentials, request: ProviderRequest): Promise<ProviderResponse> {
  const apiKey = credentials.apiKey ?? "";
  const first = await search(serpApiParams(surface === "ai_mode" ? "google_ai_mode" : "google", request, apiKey), credentials, request.signal);
  const requestId = first.search_metadata?.id;
  let searchCalls = 1;
  let blocks: Block[] = [];
  let references: Reference[] = [];
  if (surface === "ai_mode") {
    blocks = first.text_blocks ?? [];
    references = first.references ?? [];
  } else {
    let overview = first.ai_overview ?? undefined;
    if (overview?.error) throw new ProviderError(`${PROVIDER} could not read the AI Overview: ${overview.error.slice(0, 300)}`, { retryClass: "transient", reason: "provider_failed", requestId });
    if (overview && !overview.text_blocks?.length && overview.page_token) {
      // A second search, billed as one (SerpApi counts every search that is not served from its cache).
      if (request.limits.maxSearchCalls < 2) {
        throw new ProviderError(`${PROVIDER}: this AI Overview needs a second request (page_token) and the connection allows 1 search per call; allow at least 2`, {
          retryClass: "permanent",
          reason: "search_limit",
          requestId,
        });
      }
      searchCalls = 2;
      const params = new URLSearchParams({ engine: "google_ai_overview", page_token: overview.page_token, api_key: apiKey });
      overview = (await search(params, credentials, request.signal)).ai_overview ?? undefined;
    }
    blocks = overview?.text_blocks ?? [];
    references = overview?.references ?? [];
  }
  const usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls };
  const text = serpApiText(blocks);
  if (!text) return { text: "", noAnswer: true, sources: [], searchQueries: [request.prompt], usage, requestId };
  return { text, sources: serpApiSources(blocks, references), searchQueries: [request.prompt], usage, requestId };
}
