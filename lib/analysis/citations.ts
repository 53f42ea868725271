// Cited sources of an answer: the provider's sources plus URLs written in the text, normalised
// (tracking parameters and fragments removed), with their registrable domain from the public
// suffix list and a flag for the brand's own domains.
import { getDomain } from "tldts";
import type { Source } from "@/lib/providers/types";
import { normalizeHost } from "@/lib/analysis/host";

export type Citation = { url: string; title: string | null; domain: string; isOwnDomain: boolean; citedInText: boolean };

const TRACKING_PARAMS = /^(utm_\w+|gclid|fbclid|msclkid|mc_cid|mc_eid|ref|ref_src|igshid|_hsenc|_hsmi|yclid|srsltid)$/i;
// Linear, though it backtracks: a match can fail only over a run of trailing punctuation, and no
// other "http" can start inside such a run, so no character is scanned from two starts.
const URL_IN_TEXT = /https?:\/\/[^\s<>()\[\]"'`]+[^\s<>()\[\]"'`.,;:!?*_]/g;

export function normalizeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  // Rebuilt once: deleting the parameters one by one re-serialises the query each time, which
  // took 14 s for a URL with 16,000 of them.
  const params = [...url.searchParams];
  const kept = params.filter(([key]) => !TRACKING_PARAMS.test(key));
  if (kept.length < params.length) url.search = new URLSearchParams(kept).toString();
  url.hostname = url.hostname.toLowerCase();
  return url.toString();
}

/**
 * The registrable domain of a URL or host, the one definition citations, rollups and source
 * overrides share. The public suffix list's private section counts: every `*.github.io` site and
 * `capterra.com.de` are sites of their own, not one "github.io" or "com.de". A host that is itself
 * such a suffix ("github.io") keeps its ICANN registrable domain rather than none.
 */
export function registrableDomain(url: string): string | null {
  return getDomain(url, { allowPrivateDomains: true }) ?? getDomain(url, { allowPrivateDomains: false }) ?? null;
}

/**
 * The site a host belongs to: its registrable domain (public suffix list, so docs.acme.com and
 * acme.com are one site, a.github.io and b.github.io two), or the host itself. A citation is the
 * brand's own when its domain is the site of one of the brand's domains; crawler hits, visits and
 * readiness count a host as the workspace's own when its site is one of ownSites.
 */
export function siteOf(host: string): string {
  const normalized = normalizeHost(host);
  return registrableDomain(`https://${normalized}`) ?? normalized;
}

export function isOwnDomain(domain: string, ownDomains: string[]): boolean {
  return ownDomains.some((own) => siteOf(own) === domain);
}

/**
 * Gemini cites through redirect links that start so; the source's title carries its domain. Such
 * a link names a site, not a page (each answer gets a token of its own): it counts for its domain,
 * and the per-page rollups leave it out (lib/analytics/rollup-tables.ts).
 */
export const REDIRECT_LINK_PREFIX = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";

/** The registrable domain a citation is counted under (Gemini's redirect links: its title's). */
export function domainOf(url: string, title: string | null): string | null {
  if (url.startsWith(REDIRECT_LINK_PREFIX) && title) return registrableDomain(`https://${title.trim().toLowerCase()}`) ?? null;
  return registrableDomain(url);
}

export function extractCitations(input: { text: string; sources: Source[]; ownDomains: string[] }): Citation[] {
  const byUrl = new Map<string, Citation>();
  const add = (raw: string, title: string | null, citedInText: boolean) => {
    const url = normalizeUrl(raw);
    const domain = url && domainOf(url, title);
    if (!url || !domain) return;
    const existing = byUrl.get(url);
    if (existing) {
      existing.citedInText ||= citedInText;
      existing.title ??= title;
      return;
    }
    byUrl.set(url, { url, title, domain, isOwnDomain: isOwnDomain(domain, input.ownDomains), citedInText });
  };
  for (const source of input.sources) add(source.url, source.title ?? null, source.citedInText);
  for (const match of input.text.matchAll(URL_IN_TEXT)) add(match[0], null, true);
  return [...byUrl.values()];
}
