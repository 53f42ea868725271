// The source categories and their labels, apart from the mapping in ./categories.ts: the Sources
// page needs only these, and importing ./categories.ts would ship the shipped domain list
// (./source-domains.ts) and the classifier to the browser.

export const SOURCE_CATEGORIES = ["own", "competitor", "review", "forum", "news", "reference", "social", "docs", "other"] as const;
export type SourceCategory = (typeof SOURCE_CATEGORIES)[number];

/** What a workspace may set for a domain (the database enum SourceCategory). */
export const OVERRIDABLE_CATEGORIES = ["review", "forum", "news", "reference", "social", "docs", "other"] as const;
export type OverridableCategory = (typeof OVERRIDABLE_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<SourceCategory, string> = {
  own: "Own",
  competitor: "Competitor",
  review: "Review and comparison sites",
  forum: "Forums and communities",
  news: "News and media",
  reference: "Reference and encyclopedias",
  social: "Social and video",
  docs: "Vendor documentation",
  other: "Other",
};
