// Google AI Overviews and AI Mode through DataForSEO's SERP API (Basic auth, one task per Live
// request):
//   AI Overviews: POST /v3/serp/google/organic/live/advanced with `load_async_ai_overview: true`
//     https://docs.dataforseo.com/v3/serp/google/organic/live/advanced/
//   AI Mode:      POST /v3/serp/google/ai_mode/live/advanced
//     https://docs.dataforseo.com/v3/serp/google/ai_mode/live/advanced/
// The answer is the `ai_overview` item (type `ai_mode` accepted too) of tasks[0].result[0].items:
// `markdown`, `items` of elements, `references` {source, domain, url, title, text}. Errors mostly
// arrive inside HTTP 200 as status codes (https://docs.dataforseo.com/v3/appendix/errors/).
import { isoNumericCode } from "@/lib/providers/country-codes";
import { ProviderError, type RetryClass } from "@/lib/providers/errors";
import { httpFailure, normalizeSourceUrl, serpFetch, unreadableBody, withoutImages, type SerpSurface } from "@/lib/providers/serp-http";
import type { ProviderRequest, ProviderResponse, Source } from "@/lib/providers/types";

export type DataForSeoCredentials = { login?: string; password?: string; baseURL?: string };

const DEFAULT_BASE_URL = "https://api.dataforseo.com";
const PROVIDER = "DataForSEO";
/** Country and language when the prompt sets neither (both fields are required by the API). */
const DEFAULT_LOCATION_CODE = 2840;
const DEFAULT_LANGUAGE = "en";

type Reference = { url?: string | null; title?: string | null; source?: string | null };
type Link = { url?: string | null };
type Element = {
  type?: string;
  title?: string | null;
  text?: string | null;
  markdown?: string | null;
  links?: Link[] | null;
  references?: Reference[] | null;
  components?: Element[] | null;
  table?: { table_header?: string[] | null; table_content?: string[][] | null } | null;
};
type OverviewItem = Element & { items?: Element[] | null };
type Task = { id?: string; status_code?: number; status_message?: string; cost?: number; result?: { items?: OverviewItem[] | null }[] | null };
type Body = { status_code?: number; status_message?: string; tasks?: Task[] | null };

const ENDPOINTS: Record<SerpSurface, string> = {
  ai_overview: "/v3/serp/google/organic/live/advanced",
  ai_mode: "/v3/serp/google/ai_mode/live/advanced",
};

/** DataForSEO's Google language codes are ISO 639-1 ("en", "fr"), Chinese alone by script/region ("zh-CN", "zh-TW"). */
function languageCode(language: string | null | undefined): string {
  const [primary = "", region = ""] = (language ?? "").trim().split(/[-_]/);
  if (!primary) return DEFAULT_LANGUAGE;
  if (primary.toLowerCase() === "zh") return region.toUpperCase() === "TW" || region.toUpperCase() === "HK" ? "zh-TW" : "zh-CN";
  return primary.toLowerCase();
}

/**
 * Country → `location_code` (2000 + ISO numeric, the country-level codes of DataForSEO's
 * locations list), or `location_name` from settings.location ("Austin,Texas,United States");
 * language → `language_code`. Unset: United States and English.
 */
export function dataForSeoTask(surface: SerpSurface, request: ProviderRequest): Record<string, unknown> {
  const task: Record<string, unknown> = { keyword: request.prompt, language_code: languageCode(request.language) };
  const locationName = typeof request.settings?.location === "string" ? request.settings.location.trim() : "";
  const numeric = request.country ? isoNumericCode(request.country) : undefined;
  if (locationName) task.location_name = locationName;
  else task.location_code = numeric ? 2000 + numeric : DEFAULT_LOCATION_CODE;
  // Without it, an overview Google loads after the page comes only from DataForSEO's cache. The
  // extra charge is refunded when the overview was absent or not asynchronous.
  if (surface === "ai_overview") task.load_async_ai_overview = true;
  return task;
}

/** Internal status codes (appendix/errors): which ones a retry can fix. */
export function classifyDataForSeoCode(code: number): { retryClass: RetryClass; reason: string } {
  if (code === 40100 || code === 40207) return { retryClass: "permanent", reason: "auth_failed" }; // not authorized, IP not whitelisted
  if (code === 40200 || code === 40203 || code === 40210) return { retryClass: "permanent", reason: "quota_exceeded" }; // payment, daily cost limit, funds
  if (code === 40202 || code === 40209) return { retryClass: "transient", reason: "rate_limited" }; // per-minute rate, concurrent requests
  if (code === 40101 || code === 40103) return { retryClass: "transient", reason: "provider_failed" }; // search engine error, task failed
  if (code >= 50000 && code < 60000) return { retryClass: "transient", reason: "server_error" }; // internal error, 50301 unavailable, timeouts
  if (code >= 40000 && code < 50000) return { retryClass: "permanent", reason: "invalid_request" }; // 40501 invalid field, 40503 bad POST...
  return { retryClass: "transient", reason: "provider_failed" };
}

function codeFailure(code: number, message: string | undefined, requestId?: string): ProviderError {
  const { retryClass, reason } = classifyDataForSeoCode(code);
  return new ProviderError(`${PROVIDER} reported ${code}: ${(message ?? "no message").slice(0, 300)}`, { retryClass, reason, requestId });
}

const LINK_IN_MARKDOWN = /\]\((https?:\/\/[^)\s]+)\)/g;

function elementMarkdown(element: Element): string {
  const own = withoutImages(element.markdown ?? "");
  if (element.type === "ai_overview_table_element") {
    if (own) return own;
    const rows = [...(element.table?.table_header?.length ? [element.table.table_header] : []), ...(element.table?.table_content ?? [])];
    if (!rows.length) return "";
    const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
    return [line(rows[0]!), line(rows[0]!.map(() => "---")), ...rows.slice(1).map(line)].join("\n");
  }
  if (element.type === "ai_overview_video_element") return "";
  const heading = element.title?.trim() ? `### ${element.title.trim()}\n\n` : "";
  const components = (element.components ?? []).map(elementMarkdown).filter(Boolean).join("\n\n");
  const body = [own || element.text?.trim() || "", components].filter(Boolean).join("\n\n");
  return body ? heading + body : "";
}

/** The overview as markdown: its own `markdown` when DataForSEO sent one, else its elements'. */
export function dataForSeoText(overview: OverviewItem): string {
  const whole = withoutImages(overview.markdown ?? "");
  if (whole) return whole;
  return (overview.items ?? []).map(elementMarkdown).filter(Boolean).join("\n\n");
}

/**
 * References → sources. Cited (citedInText true): tied to a passage, as an element's reference
 * or link, or linked inline in the markdown. Listed only in the overview's reference panel:
 * citedInText false. Organic results around the overview are not sources.
 */
export function dataForSeoSources(overview: OverviewItem): Source[] {
  const cited = new Set<string>();
  const all = new Map<string, Source>();
  const add = (url: string | null | undefined, title?: string | null) => {
    if (!url) return;
    const key = normalizeSourceUrl(url);
    const known = all.get(key);
    if (!known) all.set(key, { url: key, ...(title ? { title } : {}), citedInText: false });
    else if (!known.title && title) known.title = title;
  };
  const cite = (url: string | null | undefined, title?: string | null) => {
    if (!url) return;
    add(url, title);
    cited.add(normalizeSourceUrl(url));
  };
  const walk = (element: Element) => {
    for (const r of element.references ?? []) cite(r.url, r.title ?? r.source);
    for (const l of element.links ?? []) cite(l.url);
    for (const m of (element.markdown ?? "").matchAll(LINK_IN_MARKDOWN)) cited.add(normalizeSourceUrl(m[1]!));
    for (const c of element.components ?? []) walk(c);
  };
  for (const r of overview.references ?? []) add(r.url, r.title ?? r.source);
  for (const m of (overview.markdown ?? "").matchAll(LINK_IN_MARKDOWN)) cited.add(normalizeSourceUrl(m[1]!));
  for (const e of overview.items ?? []) walk(e);
  return [...all.values()].map((s) => ({ ...s, citedInText: cited.has(s.url) }));
}

export async function callDataForSeo(surface: SerpSurface, credentials: DataForSeoCredentials, request: ProviderRequest): Promise<ProviderResponse> {
  const auth = Buffer.from(`${credentials.login}:${credentials.password}`).toString("base64");
  const url = `${(credentials.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "")}${ENDPOINTS[surface]}`;
  const response = await serpFetch(url, { method: "POST", headers: { authorization: `Basic ${auth}`, "content-type": "application/json" }, body: JSON.stringify([dataForSeoTask(surface, request)]) }, request.signal, PROVIDER);
  const body = (response.json && typeof response.json === "object" ? response.json : undefined) as Body | undefined;
  if (response.status !== 200) throw httpFailure(PROVIDER, response, body?.status_message ?? response.text);
  if (!body || typeof body.status_code !== "number") throw unreadableBody(PROVIDER, response);
  if (body.status_code !== 20000) throw codeFailure(body.status_code, body.status_message);
  const task = body.tasks?.[0];
  if (!task || typeof task.status_code !== "number") throw unreadableBody(PROVIDER, response);
  const requestId = task.id;
  const searchQueries = [request.prompt];
  // The task's own cost (USD) is what DataForSEO bills, refunds included (the async overview's
  // surcharge when no overview was shown): it, not the list price, is what the attempt costs.
  const reported = typeof task.cost === "number" && Number.isFinite(task.cost) && task.cost >= 0 ? { providerCostMicros: Math.round(task.cost * 1_000_000) } : {};
  const usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1, ...reported };
  // 40102 "No Search Results": Google answered nothing. DataForSEO may still charge it; the task's cost says.
  if (task.status_code === 40102) return { text: "", noAnswer: true, sources: [], searchQueries, usage: { ...usage, searchCalls: task.cost === 0 ? 0 : 1 }, requestId };
  if (task.status_code !== 20000) throw codeFailure(task.status_code, task.status_message, requestId);
  const items = task.result?.[0]?.items ?? [];
  const overview = items.find((i) => i.type === "ai_overview" || i.type === "ai_mode");
  const text = overview ? dataForSeoText(overview) : "";
  if (!overview || !text) return { text: "", noAnswer: true, sources: [], searchQueries, usage, requestId };
  return { text, sources: dataForSeoSources(overview), searchQueries, usage, requestId };
}
