// How a host or domain is compared everywhere: brands' domains, source overrides, citations,
// crawler hits and visits. Pure and small: the brand form validates with it in the browser.

import punycode from "punycode.js";

/**
 * Lower case, no scheme, path, port, trailing dot or "www.", and an international name in its
 * ASCII form ("bücher.de" is "xn--bcher-kva.de"), the one URLs, Host headers and so citations,
 * crawler hits and visits carry: how brands' domains are written varies. Idempotent.
 */
export function normalizeHost(raw: string): string {
  const host = raw.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  return asciiHost(host.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, ""))
    .replace(/\.+$/, "")
    .replace(/^(?:www\.)+/, "");
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

/** Whether the URL standard's host parser keeps an ASCII host as it is (refusing, e.g., a malformed "xn--" label). */
export function isValidAsciiHost(host: string): boolean {
  if (!/^[a-z0-9.-]+$/.test(host)) return false;
  try {
    return new URL(`http://${host}/`).hostname === host;
  } catch {
    return false;
  }
}

/** The host with its "xn--" labels decoded ("xn--bcher-kva.de" is "bücher.de"), or itself when one does not decode to what it encodes. */
export function unicodeHost(host: string): string {
  if (!host.includes("xn--")) return host;
  try {
    const unicode = punycode.toUnicode(host);
    return asciiHost(unicode) === host ? unicode : host;
  } catch {
    return host;
  }
}

// The scripts a name's letters are told apart by. Chinese, Japanese and Korean names mix theirs,
// so those count as one; Cyrillic, Greek and Armenian have letters that read as Latin ones.
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["CJK", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Georgian", /\p{Script=Georgian}/u],
];
const LATIN_LOOKALIKES = new Set(["Cyrillic", "Greek", "Armenian"]);

/** The scripts of a label's letters (digits and hyphens have none); "Other" for any script not listed. */
function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const char of label) {
    if (!/\p{L}/u.test(char)) continue;
    scripts.add(SCRIPTS.find(([, test]) => test.test(char))?.[0] ?? "Other");
  }
  return scripts;
}

/**
 * A host as people write it: "xn--bcher-kva.de" shows as "bücher.de", "xn--e1afmkfd.xn--p1ai" as
 * "пример.рф" (stored and compared in ASCII). Cited hosts come from untrusted answers, so, as
 * browsers do against look-alikes, a name stays in ASCII form unless each label keeps to one
 * script, and a label in Cyrillic, Greek or Armenian sits under a top-level domain of that script:
 * "аррӏе.com" (Cyrillic letters that read as "apple") shows as "xn--80ak6aa92e.com".
 */
export function displayHost(host: string): string {
  const unicode = unicodeHost(host);
  if (unicode === host) return host;
  const labels = unicode.split(".");
  const tld = scriptsOf(labels.at(-1)!);
  const safe = labels.every((label) => {
    const scripts = scriptsOf(label);
    if (scripts.size > 1 || scripts.has("Other")) return false;
    const [script] = scripts;
    return script === undefined || !LATIN_LOOKALIKES.has(script) || tld.has(script);
  });
  return safe ? unicode : host;
}

/** A URL as people read it: its host as displayHost shows it (the link itself keeps the ASCII form). */
export function displayUrl(url: string): string {
  const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(url)?.[1];
  if (!host || !host.includes("xn--")) return url;
  const at = url.indexOf(host);
  return url.slice(0, at) + displayHost(host) + url.slice(at + host.length);
}
