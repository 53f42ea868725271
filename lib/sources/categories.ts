// The category of a cited source: what kind of site an answer engine relies on. Pure, so the
// server and the unit tests share it (the browser needs only ./category-labels.ts). Order of
// precedence, first match wins:
// 1. own: the brand's domains (and their subdomains); 2. competitor: a competitor's domains;
// both derived from the brand at query time, never stored;
// 3. the workspace's override (table source_category_overrides);
// 4. the shipped mapping (lib/sources/source-domains.ts), the host first, then each parent;
// 5. patterns: documentation and community subdomains, public-sector and academic suffixes,
// review and comparison words in the name; 6. other.

import { normalizeHost } from "@/lib/analysis/host";
import { SOURCE_DOMAINS } from "@/lib/sources/source-domains";
import type { OverridableCategory, SourceCategory } from "./category-labels";

export { CATEGORY_LABELS, OVERRIDABLE_CATEGORIES, SOURCE_CATEGORIES, type OverridableCategory, type SourceCategory } from "./category-labels";

/** The categories the shipped mapping lists domains under. */
export type MappedCategory = Exclude<OverridableCategory, "other">;

/** The shipped mapping, checked to list every mapped category and no other. */
const SHIPPED: Record<MappedCategory, readonly string[]> & Record<Exclude<keyof typeof SOURCE_DOMAINS, MappedCategory>, never> = SOURCE_DOMAINS;

const MAPPING: ReadonlyMap<string, MappedCategory> = new Map(
  (Object.entries(SHIPPED) as [MappedCategory, readonly string[]][]).flatMap(([category, domains]) => domains.map((d) => [d, category] as const)),
);

/** The host itself and each parent with at least two labels: a.b.c.com, b.c.com, c.com. */
function selfAndParents(host: string): string[] {
  const labels = host.split(".");
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join("."));
}

const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

const DOCS_LABELS = new Set(["docs", "doc", "documentation", "developer", "developers", "dev", "api", "help", "support", "learn", "kb", "knowledge", "knowledgebase", "manual", "guide", "guides", "reference"]);
const FORUM_LABELS = new Set(["community", "communities", "forum", "forums", "discuss", "discussions", "answers", "groups"]);
const REFERENCE_SUFFIX = /\.(edu|gov|mil|int)(\.[a-z]{2})?$|\.(ac|gov)\.[a-z]{2}$/;
const REVIEW_NAME = /reviews?|compar|versus|alternatives/;

function byPattern(host: string): MappedCategory | null {
  const labels = host.split(".");
  // Subdomain labels: all but the last two (a rough registrable part, enough for these words).
  const sub = labels.slice(0, -2);
  if (sub.some((l) => DOCS_LABELS.has(l))) return "docs";
  if (sub.some((l) => FORUM_LABELS.has(l))) return "forum";
  if (REFERENCE_SUFFIX.test(host)) return "reference";
  if (labels.slice(0, -1).some((l) => REVIEW_NAME.test(l))) return "review";
  return null;
}

export type CategoryContext = {
  /** The brand's domains, as entered. */
  ownDomains: readonly string[];
  /** The domains of all its competitors, as entered. */
  competitorDomains: readonly string[];
  /** The workspace's overrides by registrable domain. */
  overrides: ReadonlyMap<string, OverridableCategory>;
};

export function categoryContext(input: { ownDomains: readonly string[]; competitorDomains: readonly string[]; overrides?: Iterable<{ domain: string; category: OverridableCategory }> }): CategoryContext {
  const clean = (domains: readonly string[]) => domains.map(normalizeHost).filter((d) => d.includes("."));
  return {
    ownDomains: clean(input.ownDomains),
    competitorDomains: clean(input.competitorDomains),
    overrides: new Map([...(input.overrides ?? [])].map((o) => [normalizeHost(o.domain), o.category])),
  };
}

/** The category a workspace sees for a cited domain or host (without "www."). */
export function categorize(domainOrHost: string, ctx: CategoryContext): SourceCategory {
  const host = normalizeHost(domainOrHost);
  if (ctx.ownDomains.some((d) => within(host, d))) return "own";
  if (ctx.competitorDomains.some((d) => within(host, d))) return "competitor";
  for (const h of selfAndParents(host)) {
    const override = ctx.overrides.get(h);
    if (override) return override;
  }
  return shippedCategory(host);
}

/** The shipped category of a domain alone, without a workspace (what an override replaces). */
export function shippedCategory(domain: string): OverridableCategory {
  const host = normalizeHost(domain);
  for (const h of selfAndParents(host)) {
    const mapped = MAPPING.get(h);
    if (mapped) return mapped;
  }
  return byPattern(host) ?? "other";
}
