// Which crawler a User-Agent names (lib/traffic/crawlers.ts). One regular expression over every
// token, longest first, so "Claude-SearchBot" is not read as a shorter token; results are cached
// per distinct User-Agent, since a log repeats a few hundred of them millions of times.
import { CRAWLERS, type Crawler } from "@/lib/traffic/crawlers";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const matchable = CRAWLERS.filter((c) => c.uaToken).sort((a, b) => b.name.length - a.name.length);
const byToken = new Map(matchable.map((c) => [c.name.toLowerCase(), c]));
// A token is not part of a longer word: "xGPTBot" or "GPTBotany" name nothing.
const TOKENS = new RegExp(`(?<![a-z0-9])(${matchable.map((c) => escape(c.name)).join("|")})(?![a-z0-9])`, "i");

const CACHE_LIMIT = 20_000;
const cache = new Map<string, Crawler | null>();

export function classifyUserAgent(userAgent: string): Crawler | null {
  const cached = cache.get(userAgent);
  if (cached !== undefined) return cached;
  const match = TOKENS.exec(userAgent);
  const crawler = match ? (byToken.get(match[1]!.toLowerCase()) ?? null) : null;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(userAgent, crawler);
  return crawler;
}
