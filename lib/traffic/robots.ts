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

/**
 * RFC 9309 2.2.2: an unreserved character (letters, digits, "-", ".", "_", "~") matches the same
 * percent-encoded or not ("/%7Ejoe" is "/~joe"), which robots-parser does not know, and escapes
 * match whatever the case of their hex digits; a reserved character's escape ("%2F") stays one.
 * Applied to the rules' paths and to the path asked about alike.
 */
export function normalizeEscapes(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escape.toUpperCase();
  });
}

const RULE = /^(\s*(?:allow|disallow)\s*:)(.*)$/i;

export function robotsPolicy(origin: string, outcome: RobotsOutcome, body = ""): RobotsPolicy {
  if (outcome === "missing") return () => true;
  if (outcome === "unreachable") return () => false;
  const rules = body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/).map((line) => line.replace(RULE, (_, key: string, value: string) => key + normalizeEscapes(value)));
  const robots = robotsParser(`${origin}/robots.txt`, rules.join("\n"));
  // isAllowed is undefined only for a URL of another origin, which this never asks about.
  return (path, token) => robots.isAllowed(`${origin}${normalizeEscapes(path.startsWith("/") ? path : `/${path}`)}`, token) !== false;
}
