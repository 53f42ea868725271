// Writes plausible assistant answers: an opening, a ranked list or a comparison table of the
// brand and its competitors in varying order and tone, and a closing line, in the manner of
// the provider being imitated, with the sources it would cite.
import type { EntityHint, Source } from "@/lib/providers/types";
import type { Random } from "./random";

export type AnswerStyle = "chatgpt" | "perplexity" | "gemini" | "claude";
type Tone = "positive" | "neutral" | "negative";

const praise = [
  "is widely praised for its clean interface and quick setup",
  "stands out for strong automation and reliable reporting",
  "is a favourite of small teams thanks to transparent pricing",
  "offers excellent integrations and responsive support",
];
const neutral = [
  "covers the core features most teams need",
  "is a solid, well-known option with a broad feature set",
  "offers a free tier and paid plans that scale with seats",
  "is frequently mentioned in comparisons of this category",
];
const criticism = [
  "can get expensive as the team grows, and some users find it complex",
  "has a steeper learning curve and add-ons that raise the price",
  "is criticised for slow support and a cluttered interface",
  "may be more than a small team needs, with a lengthy setup",
];
const reviewSites = [
  { url: "https://www.g2.com/categories/crm", title: "Best CRM Software | G2" },
  { url: "https://www.capterra.com/customer-relationship-management-software/", title: "CRM Software | Capterra" },
  { url: "https://www.techradar.com/best/best-crm-software", title: "The best CRM software of the year | TechRadar" },
  { url: "https://www.forbes.com/advisor/business/software/best-crm-small-business/", title: "Best CRM For Small Business | Forbes Advisor" },
  { url: "https://www.reddit.com/r/sales/comments/crm_recommendations/", title: "CRM recommendations? : r/sales" },
  { url: "https://www.pcmag.com/picks/the-best-crm-software", title: "The Best CRM Software | PCMag" },
];

function sentence(name: string, tone: Tone, random: Random): string {
  const phrases = tone === "positive" ? praise : tone === "negative" ? criticism : neutral;
  return `${name} ${random.pick(phrases)}.`;
}

function toneFor(random: Random, isBrand: boolean): Tone {
  const r = random.next();
  // The brand fares a little better than average, so demo charts show something to look at.
  const positive = isBrand ? 0.5 : 0.35;
  return r < positive ? "positive" : r < positive + 0.4 ? "neutral" : "negative";
}

export function writeAnswer(input: {
  prompt: string;
  brand: EntityHint;
  competitors: EntityHint[];
  style: AnswerStyle;
  search: boolean;
  random: Random;
  brandChance?: number;
}): { text: string; sources: Source[]; searchQueries: string[] } {
  const { random, style } = input;
  const entities = [
    ...(random.next() < (input.brandChance ?? 0.75) ? [{ ...input.brand, isBrand: true }] : []),
    ...input.competitors.filter(() => random.next() < 0.85).map((c) => ({ ...c, isBrand: false })),
  ];
  const ranked = random.shuffle(entities);
  const sources: Source[] = [];
  const cite = (source: { url: string; title: string }) => {
    if (!input.search) return "";
    let index = sources.findIndex((s) => s.url === source.url);
    if (index < 0) index = sources.push({ ...source, citedInText: true }) - 1;
    return style === "perplexity" ? ` [${index + 1}]` : "";
  };

  const lines: string[] = [];
  const topic = input.prompt.replace(/[?.!]+$/, "");
  lines.push(
    style === "claude"
      ? `Good question. The right answer depends on your team's size, budget and workflow, but here is how the main options compare for "${topic}".`
      : style === "gemini"
        ? `Here's an overview of the leading options for: ${topic}.`
        : `There are several strong options. Here are the ones most often recommended:`,
  );
  lines.push("");

  if (!ranked.length) {
    lines.push("There is no single best choice; it depends on your requirements. Consider trialling two or three tools before committing.");
  } else if (style === "gemini" && ranked.length > 1) {
    lines.push("| Tool | Best for | Notes |", "| --- | --- | --- |");
    for (const entity of ranked) {
      const tone = toneFor(random, entity.isBrand);
      lines.push(`| **${entity.name}** | ${random.pick(["small teams", "growing companies", "enterprises", "sales-led teams"])} | ${sentence(entity.name, tone, random).replace(`${entity.name} `, "")} |`);
    }
  } else {
    ranked.forEach((entity, i) => {
      const tone = toneFor(random, entity.isBrand);
      const domain = entity.domains[0];
      const own = domain ? cite({ url: `https://www.${domain}/`, title: `${entity.name}: official site` }) : "";
      const review = random.next() < 0.5 ? cite(random.pick(reviewSites)) : "";
      const name = style === "chatgpt" && domain && random.next() < 0.3 ? `[${entity.name}](https://${domain})` : `**${entity.name}**`;
      lines.push(`${i + 1}. ${name}: ${sentence(entity.name, tone, random)}${own}${review}`);
    });
  }
  lines.push("");
  const winner = ranked[0];
  lines.push(
    winner
      ? `Overall, ${winner.name} is a good place to start, but compare pricing and integrations against your needs.`
      : "If you share more about your team, I can narrow this down.",
  );

  const searchQueries = input.search ? [topic.toLowerCase(), `${topic.toLowerCase()} reviews ${new Date().getUTCFullYear()}`].slice(0, random.int(1, 2)) : [];
  if (input.search) {
    for (const site of random.shuffle(reviewSites).slice(0, 2)) {
      if (!sources.some((s) => s.url === site.url)) sources.push({ ...site, citedInText: false });
    }
  }
  return { text: lines.join("\n"), sources, searchQueries };
}
