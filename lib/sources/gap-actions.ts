// What to do about a gap source (a site cited in answers that name competitors and leave the
// brand out), by its category: one short line the Sources page shows beside each row and its CSV
// carries. Pure, so the page and the unit tests share it.
import type { SourceCategory } from "@/lib/sources/categories";

/** "Rival", "Rival and Other", "Rival, Other and others": the competitors most named first. */
function names(competitors: readonly string[]): string {
  if (competitors.length <= 1) return competitors[0] ?? "competitors";
  if (competitors.length === 2) return `${competitors[0]} and ${competitors[1]}`;
  return `${competitors[0]}, ${competitors[1]} and others`;
}

export function gapSourceAction(input: { domain: string; category: SourceCategory; brandName: string; competitors: readonly string[] }): string {
  const { domain, brandName: brand } = input;
  const rivals = names(input.competitors);
  switch (input.category) {
    case "review":
      return `Get ${brand} listed on ${domain} and ask customers for reviews there.`;
    case "forum":
      return `Answer threads on ${domain} where ${rivals} ${input.competitors.length === 1 ? "is" : "are"} recommended.`;
    case "news":
      return `Pitch a story or a guest post to ${domain}.`;
    case "reference":
      return `Check ${brand}'s entry on ${domain}, or whether it should have one.`;
    case "social":
      return `Publish posts or videos on ${domain} that compare ${brand} with ${rivals}.`;
    case "competitor":
      return `A competitor's own site: publish pages on yours that answer the same questions.`;
    case "own":
      return `${brand}'s own site, cited without naming ${brand}: make the name plain on the cited pages.`;
    case "docs":
    case "other":
      return `See which pages of ${domain} are cited next to ${rivals} (Cited pages below), and whether ${brand} belongs there.`;
  }
}
