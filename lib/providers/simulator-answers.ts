// Writes plausible assistant answers: an opening, a ranked list or a comparison table of the
// brand and its competitors in varying order and tone, and a closing line, in the manner of
// the provider being imitated, with the sources it would cite.
import type { EntityHint, Source } from "@/lib/providers/types";
import { nameForms, PHRASES, type AnswerLanguage, type NameForms, type Phrases } from "@/lib/providers/simulator-languages";
import type { Random } from "@/lib/providers/simulator-random";

export type AnswerStyle = "chatgpt" | "perplexity" | "gemini" | "claude" | "overview";
type Tone = "positive" | "neutral" | "negative";

const reviewSites = [
  { url: "https://www.g2.com/categories/crm", title: "Best CRM Software | G2" },
  { url: "https://www.capterra.com/customer-relationship-management-software/", title: "CRM Software | Capterra" },
  { url: "https://www.techradar.com/best/best-crm-software", title: "The best CRM software of the year | TechRadar" },
  { url: "https://www.forbes.com/advisor/business/software/best-crm-small-business/", title: "Best CRM For Small Business | Forbes Advisor" },
  { url: "https://www.reddit.com/r/sales/comments/crm_recommendations/", title: "CRM recommendations? : r/sales" },
  { url: "https://www.pcmag.com/picks/the-best-crm-software", title: "The Best CRM Software | PCMag" },
];

// Products the answers name besides the tracked ones, as real answers do, so the demo has
// something for competitor discovery to find (lib/alerts/discovery.ts). The demo tracks CRMs.
const UNTRACKED_CRMS = ["Attio", "Folk", "Close", "Zoho CRM", "Freshsales", "Copper"];
const UNTRACKED_CHANCE = 0.3;

function sentence(phrases: Phrases, forms: NameForms, tone: Tone, random: Random): string {
  const sentences = tone === "positive" ? phrases.praise : tone === "negative" ? phrases.criticism : phrases.neutral;
  return random.pick(sentences)(forms);
}

/** Now and then a second sentence names the entity in another case (none in English). */
function aside(phrases: Phrases, forms: NameForms, random: Random): string {
  return phrases.aside.length && random.next() < 0.5 ? ` ${random.pick(phrases.aside)(forms)}` : "";
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
  /** The language to answer in (default English). */
  language?: AnswerLanguage;
  /**
   * Draws for the untracked products, kept apart from `random` so that adding them changed none
   * of the answers' other draws (seeded tests and the demo history). Without it, none are named.
   */
  untracked?: Random;
}): { text: string; sources: Source[]; searchQueries: string[] } {
  const { random, style } = input;
  const language = input.language ?? "en";
  const phrases = PHRASES[language];
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
  // An AI Overview opens like Gemini's answers and lists its points as bullets.
  lines.push(style === "claude" ? phrases.opening.claude(topic) : style === "gemini" || style === "overview" ? phrases.opening.gemini(topic) : phrases.opening.other);
  lines.push("");

  if (!ranked.length) {
    lines.push(phrases.noneFits);
  } else if (style === "gemini" && ranked.length > 1) {
    lines.push(`| ${phrases.table.header.join(" | ")} |`, "| --- | --- | --- |");
    for (const entity of ranked) {
      const tone = toneFor(random, entity.isBrand);
      const forms = nameForms(entity, language);
      lines.push(`| **${forms.nominative}** | ${random.pick(phrases.table.bestFor)} | ${sentence(phrases, forms, tone, random).replace(`${forms.nominative} `, "")} |`);
    }
  } else {
    ranked.forEach((entity, i) => {
      const tone = toneFor(random, entity.isBrand);
      const domain = entity.domains[0];
      const own = domain ? cite({ url: `https://www.${domain}/`, title: `${entity.name}: official site` }) : "";
      const review = random.next() < 0.5 ? cite(random.pick(reviewSites)) : "";
      const forms = nameForms(entity, language);
      const name = style === "chatgpt" && domain && random.next() < 0.3 ? `[${forms.nominative}](https://${domain})` : `**${forms.nominative}**`;
      lines.push(`${style === "overview" ? "-" : `${i + 1}.`} ${name}: ${sentence(phrases, forms, tone, random)}${aside(phrases, forms, random)}${own}${review}`);
    });
  }
  if (ranked.length && input.untracked) lines.push(...untrackedItems(input.untracked, input, ranked.length, phrases, language));
  lines.push("");
  const winner = ranked[0];
  lines.push(winner ? phrases.closing(nameForms(winner, language)) : phrases.closingNone);

  const searchQueries = input.search ? [topic.toLowerCase(), `${topic.toLowerCase()} reviews ${new Date().getUTCFullYear()}`].slice(0, random.int(1, 2)) : [];
  if (input.search) {
    for (const site of random.shuffle(reviewSites).slice(0, 2)) {
      if (!sources.some((s) => s.url === site.url)) sources.push({ ...site, citedInText: false });
    }
  }
  return { text: lines.join("\n"), sources, searchQueries };
}

/**
 * Now and then one or two products that are not tracked, as the last items of the list or table
 * (positions count tracked entities only, so theirs are unchanged either way).
 */
function untrackedItems(random: Random, input: { brand: EntityHint; competitors: EntityHint[]; style: AnswerStyle }, listed: number, phrases: Phrases, language: AnswerLanguage): string[] {
  if (random.next() >= UNTRACKED_CHANCE) return [];
  const tracked = new Set([input.brand, ...input.competitors].flatMap((e) => [e.name, ...(e.aliases ?? [])]).map((n) => n.toLowerCase()));
  const names = random.shuffle(UNTRACKED_CRMS.filter((n) => !tracked.has(n.toLowerCase()))).slice(0, random.int(1, 2));
  return names.map((name, i) => {
    const forms = nameForms({ name }, language);
    const said = sentence(phrases, forms, toneFor(random, false), random);
    if (input.style === "gemini" && listed > 1) return `| **${name}** | ${random.pick(phrases.table.bestFor)} | ${said.replace(`${name} `, "")} |`;
    return `${input.style === "overview" ? "-" : `${listed + i + 1}.`} **${name}**: ${said}`;
  });
}
