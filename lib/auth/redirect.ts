// Where to send someone after signing in, when the target came from the client (`?next=`).
// Only a path on this site is accepted: browsers read "//host", "/\host" (a backslash is a slash
// to them) and "/<tab>/host" (tabs and line breaks are dropped) as another host, so any of
// those, a scheme, a control character or a backslash, also once percent-decoded, gives the
// fallback. Pure: the login page and its form both use it.

const MAX_LENGTH = 2048;
const PLACEHOLDER_ORIGIN = "http://beacon.invalid";
// C0 controls (tabs and line breaks among them), DEL, the C1 range, and the backslash.
const FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\\]/u;

function acceptable(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !FORBIDDEN.test(path);
}

/**
 * `next` when it is a same-origin path ("/checks?page=2#top"), normalised as the browser would
 * resolve it; `fallback` otherwise. `origin` is the site's own (any origin works for the check).
 */
export function safeRedirectPath(next: unknown, fallback = "/", origin = PLACEHOLDER_ORIGIN): string {
  if (typeof next !== "string" || next.length > MAX_LENGTH || !passes(next)) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  // Resolving dot segments can bring an encoded slash to the front ("/../%2F" is "/%2F", which
  // decodes to "//"): the result passes the same checks, or the fallback is returned.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return passes(path) ? path : fallback;
}

/** Acceptable as it is and once percent-decoded. */
function passes(path: string): boolean {
  if (!acceptable(path)) return false;
  try {
    return acceptable(decodeURIComponent(path));
  } catch {
    return false;
  }
}
