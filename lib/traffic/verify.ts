// Whether a hit that claims to be a crawler came from the addresses its operator publishes.
// Shipped: dated snapshots in lib/traffic/ranges/ (the operator's own JSON shape, `prefixes` of
// `ipv4Prefix` / `ipv6Prefix`); an operator refreshes one with `npm run beacon -- traffic ranges
// import`, which stores it in crawler_ip_ranges, and that copy wins over the shipped one.
// Only the verdict is stored with a hit, never the address.
import ipaddr from "ipaddr.js";
import { z } from "zod";
import gptbot from "@/lib/traffic/ranges/gptbot.json";
import searchbot from "@/lib/traffic/ranges/searchbot.json";
import { CRAWLERS } from "@/lib/traffic/crawlers";

/** verified: in the published ranges; unverified: the operator publishes ranges and the address is not in them (or is missing); unchecked: no ranges to check against. */
export const VERIFICATIONS = ["verified", "unverified", "unchecked"] as const;
export type Verification = (typeof VERIFICATIONS)[number];

/** The operator's file: { creationTime?, prefixes: [{ ipv4Prefix } | { ipv6Prefix }] } (OpenAI's, Google's and Bing's shape). */
export const publishedRangesSchema = z.object({
  creationTime: z.string().optional(),
  prefixes: z
    .array(z.object({ ipv4Prefix: z.string().optional(), ipv6Prefix: z.string().optional() }))
    .min(1, "the file lists no prefixes"),
});

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The CIDRs of a published file; throws naming the first one that is not a CIDR. */
export function cidrsOf(file: z.infer<typeof publishedRangesSchema>): string[] {
  const cidrs = file.prefixes.map((p) => p.ipv4Prefix ?? p.ipv6Prefix).filter((p): p is string => Boolean(p));
  for (const cidr of cidrs) {
    if (!ipaddr.isValidCIDR(cidr)) throw new Error(`"${cidr}" is not a CIDR prefix`);
  }
  if (!cidrs.length) throw new Error("the file lists no ipv4Prefix or ipv6Prefix");
  return cidrs;
}

const SHIPPED: Record<string, string[]> = {
  gptbot: cidrsOf(gptbot),
  searchbot: cidrsOf(searchbot),
};

/** Crawler name -> CIDRs from the shipped snapshots. */
export function shippedRanges(): Map<string, string[]> {
  return new Map(CRAWLERS.filter((c) => c.ranges && SHIPPED[c.ranges]).map((c) => [c.name, SHIPPED[c.ranges!]!]));
}

/** Checks addresses against one set of ranges per crawler, caching verdicts per address. */
export class RangeVerifier {
  private readonly ranges: Map<string, Cidr[]>;
  private readonly cache = new Map<string, Verification>();

  constructor(byCrawler: Map<string, string[]>) {
    this.ranges = new Map([...byCrawler].map(([name, cidrs]) => [name, cidrs.map((c) => ipaddr.parseCIDR(c))]));
  }

  verify(crawler: string, address: string | null): Verification {
    const cidrs = this.ranges.get(crawler);
    if (!cidrs) return "unchecked";
    if (!address) return "unverified";
    const key = `${crawler} ${address}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let verdict: Verification = "unverified";
    try {
      // ipaddr.process turns an IPv4-mapped IPv6 address (::ffff:192.0.2.1) into its IPv4 one.
      const ip = ipaddr.process(address.replace(/^\[|\]$/g, ""));
      if (cidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) verdict = "verified";
    } catch {
      verdict = "unverified";
    }
    if (this.cache.size >= 50_000) this.cache.clear();
    this.cache.set(key, verdict);
    return verdict;
  }
}
