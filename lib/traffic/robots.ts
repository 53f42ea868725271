import robotsParser from "robots-parser";

// Reading a site's robots.txt the way RFC 9309 tells crawlers to, for site readiness. Parsing and
// matching (groups, several user-agent lines per group, `*` and `$`, longest match with allow
// winning a tie, a BOM, CRLF) are robots-parser's; what a fetch that found no file means is here.
// Pure: the fetch is lib/traffic/site-fetch.ts.

/** Largest robots.txt read (RFC 9309 2.5: crawlers parse at least 500 KiB; the rest is ignored). */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/**
 * What the fetch of /robots.txt found: a file (2xx), none (4xx: "unavailable", everything is
 * allowed) or no answer (5xx, a network error or timeout: "unreachable", everything is
 * disallowed). 429 counts as unreachable: it says "later", not "there is none" (Google reads it
 * so too).
 */
export type RobotsOutcome = "found" | "missing" | "unreachable";

export function robotsOutcome(status: number | null): RobotsOutcome {
  if (status === null || status === 429 || status >= 500) return "unreachable";
  if (status >= 200 && status < 300) return "found";
  // 4xx, and a redirect chain too long to follow (RFC 9309 2.3.1.2 lets it count as unavailable).
  return "missing";
}

/** Whether `token` (a crawler's robots token) may fetch `path` on `origin`. */
export type RobotsPolicy = (path: string, token: string) => boolean;

export function robotsPolicy(origin: string, outcome: RobotsOutcome, body = ""): RobotsPolicy {
  if (outcome === "missing") return () => true;
  if (outcome === "unreachable") return () => false;
  const robots = robotsParser(`${origin}/robots.txt`, body);
  // isAllowed is undefined only for a URL of another origin, which this never asks about.
  return (path, token) => robots.isAllowed(`${origin}${path.startsWith("/") ? path : `/${path}`}`, token) !== false;
}
