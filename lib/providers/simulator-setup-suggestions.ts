// The simulator's first-run suggestions (lib/setup): a plausible brand, competitors and buyer
// questions for a website, offline and deterministic from its domain and language (English,
// German, Russian; other languages get English). The category is guessed from words in the
// domain, else drawn from it; competitors are made up, with made-up domains. Answered as the JSON
// a real model is asked for, so the same parser reads both, with usage counted like the
// simulator's answers (4 characters a token) so that the price table charges it.
import { CallAbortedError, abortReasonOf } from "@/lib/providers/errors";
import type { ProviderResponse } from "@/lib/providers/types";
import { seededRandom, type Random } from "@/lib/providers/simulator-random";

type Lang = "en" | "de" | "ru";
type Category = { key: string; words: RegExp; name: Record<Lang, string>; stems: string[] };

const CATEGORIES: Category[] = [
  { key: "crm", words: /crm|sales|lead|deal/, name: { en: "CRM", de: "CRM-Software", ru: "CRM-сервис" }, stems: ["Pipe", "Deal", "Lead", "Close", "Funnel", "Contact"] },
  { key: "projects", words: /task|project|plan|board|team/, name: { en: "project management tool", de: "Projektmanagement-Tool", ru: "сервис управления проектами" }, stems: ["Task", "Sprint", "Plan", "Board", "Flow", "Track"] },
  { key: "email", words: /mail|newsletter|send|inbox/, name: { en: "email marketing platform", de: "E-Mail-Marketing-Plattform", ru: "сервис email-рассылок" }, stems: ["Mail", "Send", "Letter", "Inbox", "Post", "Reach"] },
  { key: "accounting", words: /book|account|ledger|tax|invoice|pay/, name: { en: "accounting software", de: "Buchhaltungssoftware", ru: "бухгалтерский сервис" }, stems: ["Ledger", "Book", "Tally", "Sum", "Count", "Bill"] },
  { key: "shop", words: /shop|store|cart|market|commerce/, name: { en: "e-commerce platform", de: "E-Commerce-Plattform", ru: "конструктор интернет-магазинов" }, stems: ["Cart", "Shop", "Store", "Sell", "Order", "Basket"] },
  { key: "hosting", words: /cloud|host|server|deploy|data/, name: { en: "cloud hosting provider", de: "Cloud-Hosting-Anbieter", ru: "облачный хостинг" }, stems: ["Cloud", "Stack", "Node", "Rack", "Host", "Deploy"] },
];
const SUFFIXES = ["ly", "io", "hub", "ify", "base", "wise", "kit", "lab"];

/** The questions per language: {c} the category, {b} the brand, {x} a competitor, {where} the country. */
const TEMPLATES: Record<Lang, { discovery: string[]; pricing: string[]; reviews: string[]; comparison: string; alternatives: string; brand: string[] }> = {
  en: {
    discovery: [
      "What is the best {c} for a small business{where}?",
      "Which {c} is easiest to set up without a dedicated admin?",
      "What {c} do fast-growing startups use{where}?",
      "Which {c} works best for a remote team?",
      "What should I look for when choosing a {c}?",
      "Which {c} has the best integrations?",
      "What is the most reliable {c} for a mid-sized company?",
      "Which {c} is best for beginners?",
    ],
    pricing: ["What is the most affordable {c} with a good free plan?", "Which {c} offers the best value for money{where}?", "How much does a {c} cost per month for 10 users?"],
    reviews: ["Which {c} has the best customer support?", "What do users say about the top {c} options?", "Which {c} is rated highest by small teams?"],
    comparison: "{b} vs {x}: which {c} is better?",
    alternatives: "What are the best alternatives to {x}?",
    brand: ["Is {b} a good {c}?", "What are the pros and cons of {b}?"],
  },
  de: {
    discovery: [
      "Was ist die beste {c} für ein kleines Unternehmen{where}?",
      "Welche {c} lässt sich ohne eigenen Administrator einrichten?",
      "Welche {c} nutzen schnell wachsende Startups{where}?",
      "Welche {c} eignet sich am besten für ein Remote-Team?",
      "Worauf sollte ich bei der Auswahl einer {c} achten?",
      "Welche {c} hat die besten Integrationen?",
      "Was ist die zuverlässigste {c} für ein mittelständisches Unternehmen?",
      "Welche {c} ist am besten für Einsteiger?",
    ],
    pricing: ["Welche {c} ist am günstigsten und hat einen guten kostenlosen Tarif?", "Welche {c} bietet das beste Preis-Leistungs-Verhältnis{where}?", "Was kostet eine {c} im Monat für 10 Nutzer?"],
    reviews: ["Welche {c} hat den besten Kundensupport?", "Was sagen Nutzer über die bekanntesten Anbieter für {c}?", "Welche {c} bewerten kleine Teams am besten?"],
    comparison: "{b} oder {x}: Welche {c} ist besser?",
    alternatives: "Was sind die besten Alternativen zu {x}?",
    brand: ["Ist {b} eine gute {c}?", "Was sind die Vor- und Nachteile von {b}?"],
  },
  ru: {
    discovery: [
      "Какой {c} лучше выбрать для малого бизнеса{where}?",
      "Какой {c} проще всего настроить без отдельного администратора?",
      "Какой {c} выбирают быстрорастущие стартапы{where}?",
      "Какой {c} лучше всего подходит для удалённой команды?",
      "Как выбрать {c} для компании?",
      "Какой {c} предлагает лучшие интеграции?",
      "Какой {c} самый надёжный для средней компании?",
      "Какой {c} лучше всего подходит новичкам?",
    ],
    pricing: ["Какой {c} самый доступный и с хорошим бесплатным тарифом?", "Какой {c} даёт лучшее соотношение цены и качества{where}?", "Сколько стоит {c} в месяц на 10 пользователей?"],
    reviews: ["Какой {c} славится лучшей поддержкой клиентов?", "Какой {c} хвалят пользователи в отзывах?", "Какой {c} выше всего оценивают небольшие команды?"],
    comparison: "{b} или {x}: какой {c} лучше?",
    alternatives: "Какие есть лучшие альтернативы {x}?",
    brand: ["Стоит ли выбирать {b}?", "Какие плюсы и минусы у {b}?"],
  },
};

const COUNTRY_NAMES: Record<Lang, Record<string, string>> = {
  en: { US: "in the US", GB: "in the UK", DE: "in Germany", RU: "in Russia", FR: "in France", ES: "in Spain" },
  de: { US: "in den USA", GB: "in Großbritannien", DE: "in Deutschland", AT: "in Österreich", CH: "in der Schweiz", RU: "in Russland" },
  ru: { US: "в США", DE: "в Германии", RU: "в России", KZ: "в Казахстане", BY: "в Беларуси" },
};

const ACRONYMS = new Set(["ai", "crm", "erp", "hr", "io", "it", "seo", "saas", "api", "b2b", "cms"]);
const titleCase = (label: string) =>
  label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");

function made(random: Random, category: Category, taken: Set<string>, tld: string) {
  for (;;) {
    const name = `${random.pick(category.stems)}${random.pick(SUFFIXES)}`;
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    return { name, aliases: [] as string[], domains: [`${name.toLowerCase()}.${tld}`] };
  }
}

/** The proposal for a website, as plain data (the JSON the simulator answers). */
export function simulateSetupProposal(input: { domain: string; language: string; country?: string | null }) {
  const lang: Lang = (["en", "de", "ru"] as const).find((l) => input.language.toLowerCase().startsWith(l)) ?? "en";
  const random = seededRandom(`setup:${input.domain}:${lang}:${input.country ?? ""}`);
  const label = input.domain.split(".")[0] ?? input.domain;
  const category = CATEGORIES.find((c) => c.words.test(label)) ?? random.pick(CATEGORIES);
  const brandName = titleCase(label) || input.domain;
  const tld = input.country === "DE" ? "de" : input.country === "RU" ? "ru" : "com";
  const taken = new Set([brandName.toLowerCase()]);
  const competitors = Array.from({ length: random.int(5, 7) }, () => made(random, category, taken, tld));
  const t = TEMPLATES[lang];
  const where = input.country && COUNTRY_NAMES[lang][input.country] ? ` ${COUNTRY_NAMES[lang][input.country]}` : "";
  const fill = (template: string, x = "") => template.replaceAll("{c}", category.name[lang]).replaceAll("{b}", brandName).replaceAll("{x}", x).replaceAll("{where}", where);
  const questions = [
    ...t.discovery.map((q) => ({ text: fill(q), tag: "discovery" })),
    ...t.pricing.map((q) => ({ text: fill(q), tag: "pricing" })),
    ...t.reviews.map((q) => ({ text: fill(q), tag: "reviews" })),
    ...competitors.slice(0, 4).map((c) => ({ text: fill(t.comparison, c.name), tag: "comparison" })),
    ...competitors.slice(0, 3).map((c) => ({ text: fill(t.alternatives, c.name), tag: "alternatives" })),
    ...t.brand.map((q) => ({ text: fill(q), tag: "brand" })),
  ];
  const aliases = label.includes("-") ? [label.replaceAll("-", "")] : [];
  return { brand: { name: brandName, aliases, domains: [input.domain] }, competitors, questions };
}

/** The simulator as a setup call: the proposal as JSON text, its usage, and an abort honoured at once. */
export async function simulateSetupCall(input: { prompt: string; domain: string; language: string; country?: string | null; signal: AbortSignal }): Promise<ProviderResponse> {
  if (input.signal.aborted) throw new CallAbortedError(abortReasonOf(input.signal), "");
  const text = JSON.stringify(simulateSetupProposal(input), null, 1);
  return {
    text,
    sources: [],
    searchQueries: [],
    usage: { inputTokens: Math.ceil(input.prompt.length / 4), outputTokens: Math.ceil(text.length / 4), reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 },
    requestId: `sim_setup_${seededRandom(input.domain).int(0, 1e9).toString(36)}`,
  };
}
