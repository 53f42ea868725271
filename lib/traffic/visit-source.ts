// Whether a page view was sent by an AI assistant (lib/traffic/assistants.ts), and which landing
// page it counts for. Pure, so the collect route and the tests share it; the server decides,
// the script only reports the page address and document.referrer.
import { normalizeHost } from "@/lib/analysis/host";
import { ASSISTANTS, type Assistant } from "@/lib/traffic/assistants";

/** Longest path kept (a longer one is cut), as for crawler hits: the rollup's key must fit a btree entry. */
const MAX_PATH = 1_000;

const byHost = new Map(ASSISTANTS.flatMap((a) => a.hosts.map((h) => [h, a] as const)));
const byUtm = new Map(ASSISTANTS.flatMap((a) => [...a.hosts, ...a.utm].map((u) => [u, a] as const)));

export type VisitSource = { assistant: Assistant; domain: string; path: string };

function parseHttpUrl(raw: string): URL | null {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  return url.protocol === "http:" || url.protocol === "https:" ? url : null;
}

/** The assistant a referrer's host belongs to: the host itself or any parent is listed. */
export function assistantOfReferrer(referrer: string): Assistant | null {
  const url = parseHttpUrl(referrer);
  if (!url) return null;
  const labels = normalizeHost(url.hostname).split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const found = byHost.get(labels.slice(i).join("."));
    if (found) return found;
  }
  return null;
}

/** The assistant a utm_source value names ("chatgpt.com", "ChatGPT", "www.perplexity.ai"). */
export function assistantOfUtmSource(value: string): Assistant | null {
  const source = value.trim().toLowerCase().replace(/^www\./, "");
  return byUtm.get(source) ?? null;
}

/**
 * The visit an assistant sent: the landing page's host (lower case, without "www." and port),
 * its path without query or fragment, and the assistant, named by the referrer's host or else
 * by the landing address's utm_source. Null when neither names one, or the page address is not
 * an http(s) URL.
 */
export function classifyVisit(input: { url: string; referrer: string }): VisitSource | null {
  const landing = parseHttpUrl(input.url);
  if (!landing || !landing.hostname) return null;
  const assistant = assistantOfReferrer(input.referrer) ?? assistantOfUtmSource(landing.searchParams.get("utm_source") ?? "");
  if (!assistant) return null;
  return { assistant, domain: normalizeHost(landing.hostname), path: (landing.pathname || "/").slice(0, MAX_PATH) };
}
