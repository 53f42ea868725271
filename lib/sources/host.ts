// How a host or domain is compared everywhere: brands' domains, source overrides, citations,
// crawler hits and visits. Pure and small: the brand form validates with it in the browser.

import punycode from "punycode.js";

/**
 * Lower case, no scheme, path, port, trailing dot or "www.", and an international name in its
 * ASCII form ("bücher.de" is "xn--bcher-kva.de"), the one URLs, Host headers and so citations,
 * crawler hits and visits carry: how brands' domains are written varies.
 */
export function normalizeHost(raw: string): string {
  let host = raw.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  host = asciiHost(host.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, "").replace(/\.$/, ""));
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** A host with non-ASCII letters through the URL standard's host parser (the browser's and Node's); unchanged when that refuses it. */
function asciiHost(host: string): string {
  if (/^[\x00-\x7f]*$/.test(host) || /[\s@:\\%[\]]/.test(host)) return host;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

/** A host as people write it: "xn--bcher-kva.de" shows as "bücher.de" (stored and compared in ASCII). */
export function displayHost(host: string): string {
  if (!host.includes("xn--")) return host;
  try {
    return punycode.toUnicode(host);
  } catch {
    return host;
  }
}

/** A URL as people read it: its host as displayHost shows it (the link itself keeps the ASCII form). */
export function displayUrl(url: string): string {
  const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(url)?.[1];
  if (!host || !host.includes("xn--")) return url;
  const at = url.indexOf(host);
  return url.slice(0, at) + displayHost(host) + url.slice(at + host.length);
}
