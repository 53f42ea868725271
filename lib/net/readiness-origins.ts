// BEACON_READINESS_ORIGINS: own domains that site readiness fetches at another address than
// https://<domain>: a site this network reaches under another name (split-horizon DNS, a staging
// copy checked before launch), and the browser tests' local site. Pure, so the environment's
// check (lib/config/env.ts) and unit tests use it.

export type ReadinessOrigins = ReadonlyMap<string, string>;

/**
 * Parses "domain=origin" pairs separated by commas or spaces, e.g.
 * "example.com=http://10.0.0.5:8080, shop.example.com=https://staging.example.net". Each origin is
 * an http(s) URL without a path. The domain is kept as normalizeHost (lib/analysis/host.ts) writes
 * brands' domains: the URL standard's host (lower case, ASCII), without a trailing dot or "www.".
 * Returns the problem instead when an entry is not one.
 */
export function parseReadinessOrigins(spec: string): { ok: true; origins: ReadinessOrigins } | { ok: false; error: string } {
  const origins = new Map<string, string>();
  const entries = spec.split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return { ok: false, error: "list at least one domain=origin pair" };
  for (const entry of entries) {
    const at = entry.indexOf("=");
    const domain = at > 0 ? hostOf(entry.slice(0, at)) : "";
    if (!domain) return { ok: false, error: `"${entry}" is not domain=origin` };
    let url: URL;
    try {
      url = new URL(entry.slice(at + 1));
    } catch {
      return { ok: false, error: `"${entry.slice(at + 1)}" (for ${domain}) is not a URL` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, error: `the origin for ${domain} must be http or https, not ${url.protocol}` };
    if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username) {
      return { ok: false, error: `the origin for ${domain} must be scheme, host and port only (${url.origin}), not ${entry.slice(at + 1)}` };
    }
    if (origins.has(domain)) return { ok: false, error: `${domain} is listed twice` };
    origins.set(domain, url.origin);
  }
  return { ok: true, origins };
}

/** The domain as a host, or "" when it is not one (a path, a port or credentials are not). */
function hostOf(domain: string): string {
  if (/[/?#@:\\\s]/.test(domain)) return "";
  try {
    return new URL(`http://${domain}/`).hostname.replace(/\.+$/, "").replace(/^(?:www\.)+/, "");
  } catch {
    return "";
  }
}
