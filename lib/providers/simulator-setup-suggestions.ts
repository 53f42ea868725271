// The simulator's first-run suggestions (lib/setup): a plausible brand, competitors and buyer
// questions for a website, offline and deterministic from its address and language (English,
// German, Russian; other languages get English). The category is guessed from the words of the
// address and the person's "what do you sell" (simulator-setup-categories.ts); with none known
// the questions are about "companies like" the brand. Competitors are made up from the
// category's stems, with made-up domains; the wizard says so. Answered as the JSON
// a real model is asked for, so the same parser reads both, with usage counted like the
// simulator's answers (4 characters a token) so that the price table charges it.
import { CallAbortedError, abortReasonOf } from "@/lib/providers/errors";
import type { ProviderResponse } from "@/lib/providers/types";
import { seededRandom, type Random } from "@/lib/providers/simulator-random";
import { categoryOf, NEUTRAL_STEMS, wordsOf, type Kind, type Lang } from "@/lib/providers/simulator-setup-categories";

type Templates = { discovery: string[]; pricing: string[]; reviews: string[]; comparison: string; alternatives: string; brand: string[] };

const SUFFIXES: Record<Kind | "neutral", string[]> = {
  software: ["ly", "io", "hub", "ify", "base", "wise", "kit", "lab"],
  goods: ["craft", "works", "field", "line", "stone", "wood", "mark", "co"],
  services: [" Group", " Partners", "point", "way", "bridge", "well", "gate", "hall"],
  neutral: [" Group", "co", "line", "works", "point", "way"],
};

/** The questions per kind and language: {c} the category, {b} the brand, {x} a competitor, {where} the country. */
const TEMPLATES: Record<Kind, Record<Lang, Templates>> = {
  software: {
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
      reviews: ["Welche {c} hat den besten Kundensupport?", "Welche {c} loben Nutzer in Bewertungen am meisten?", "Welche {c} bewerten kleine Teams am besten?"],
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
  },
  goods: {
    en: {
      discovery: [
        "What is the best {c}{where}?",
        "Which {c} do experts recommend?",
        "Which {c} has the best quality?",
        "Which {c} is the most popular right now{where}?",
        "Which {c} is best for beginners?",
        "What should I look for when choosing a {c}?",
        "Which {c} is the most sustainable?",
        "Which {c} lasts the longest?",
      ],
      pricing: ["What is the most affordable {c} that is still good?", "Which {c} offers the best value for money{where}?", "Which {c} has the best deals and discounts?"],
      reviews: ["Which {c} has the best customer service?", "What do customers say about the top {c} options?", "Which {c} has the most reliable delivery and returns{where}?"],
      comparison: "{b} vs {x}: which {c} is better?",
      alternatives: "What are the best alternatives to {x}?",
      brand: ["Is {b} a good {c}?", "What are the pros and cons of {b}?"],
    },
    de: {
      discovery: [
        "Was ist die beste {c}{where}?",
        "Welche {c} empfehlen Experten?",
        "Welche {c} bietet die beste Qualität?",
        "Welche {c} ist gerade am beliebtesten{where}?",
        "Welche {c} ist am besten für Einsteiger?",
        "Worauf sollte ich bei der Wahl einer {c} achten?",
        "Welche {c} ist am nachhaltigsten?",
        "Welche {c} hat die langlebigsten Produkte?",
      ],
      pricing: ["Welche {c} ist günstig und trotzdem gut?", "Welche {c} bietet das beste Preis-Leistungs-Verhältnis{where}?", "Welche {c} hat die besten Angebote und Rabatte?"],
      reviews: ["Welche {c} hat den besten Kundenservice?", "Welche {c} wird von Kunden am besten bewertet?", "Welche {c} hat den zuverlässigsten Versand und Rückversand{where}?"],
      comparison: "{b} oder {x}: Welche {c} ist besser?",
      alternatives: "Was sind die besten Alternativen zu {x}?",
      brand: ["Ist {b} eine gute {c}?", "Was sind die Vor- und Nachteile von {b}?"],
    },
    ru: {
      discovery: [
        "Какой {c} считается лучшим{where}?",
        "Какой {c} советуют эксперты?",
        "Какой {c} предлагает лучшее качество?",
        "Какой {c} сейчас самый популярный{where}?",
        "Какой {c} лучше всего подходит новичкам?",
        "Какой {c} стоит рассмотреть в первую очередь?",
        "Какой {c} самый экологичный?",
        "Какой {c} делает самые долговечные товары?",
      ],
      pricing: ["Какой {c} самый доступный, но при этом хороший?", "Какой {c} даёт лучшее соотношение цены и качества{where}?", "Какой {c} предлагает лучшие скидки?"],
      reviews: ["Какой {c} славится лучшим обслуживанием покупателей?", "Какой {c} хвалят покупатели в отзывах?", "Какой {c} надёжнее всего с доставкой и возвратом{where}?"],
      comparison: "{b} или {x}: какой {c} лучше?",
      alternatives: "Какие есть лучшие альтернативы {x}?",
      brand: ["Стоит ли выбирать {b}?", "Какие плюсы и минусы у {b}?"],
    },
  },
  services: {
    en: {
      discovery: [
        "What is the best {c}{where}?",
        "Which {c} do people recommend{where}?",
        "How do I choose a good {c}?",
        "Which {c} is best for first-time customers?",
        "Which {c} has the best reputation{where}?",
        "Which {c} is the most trustworthy?",
        "Which {c} responds fastest to new customers?",
        "What should I ask before choosing a {c}?",
      ],
      pricing: ["What is the most affordable {c}{where}?", "Which {c} offers the best value for money?", "How much does a good {c} cost{where}?"],
      reviews: ["Which {c} has the best customer reviews?", "What do customers complain about most with a {c}?", "Which {c} is rated highest{where}?"],
      comparison: "{b} vs {x}: which {c} is better?",
      alternatives: "What are the best alternatives to {x}?",
      brand: ["Is {b} a good {c}?", "What are the pros and cons of {b}?"],
    },
    de: {
      discovery: [
        "Was ist die beste {c}{where}?",
        "Welche {c} wird am häufigsten empfohlen{where}?",
        "Wie finde ich eine gute {c}?",
        "Welche {c} eignet sich für Neukunden am besten?",
        "Welche {c} hat den besten Ruf{where}?",
        "Welche {c} ist am vertrauenswürdigsten?",
        "Welche {c} reagiert am schnellsten auf Anfragen?",
        "Was sollte ich fragen, bevor ich mich für eine {c} entscheide?",
      ],
      pricing: ["Was ist die günstigste {c}{where}?", "Welche {c} bietet das beste Preis-Leistungs-Verhältnis?", "Mit welchen Kosten muss ich bei einer guten {c} rechnen{where}?"],
      reviews: ["Welche {c} hat die besten Kundenbewertungen?", "Worüber beschweren sich Kunden bei einer {c} am häufigsten?", "Welche {c} wird am besten bewertet{where}?"],
      comparison: "{b} oder {x}: Welche {c} ist besser?",
      alternatives: "Was sind die besten Alternativen zu {x}?",
      brand: ["Ist {b} eine gute {c}?", "Was sind die Vor- und Nachteile von {b}?"],
    },
    ru: {
      discovery: [
        "Какой {c} считается лучшим{where}?",
        "Какой {c} чаще всего рекомендуют{where}?",
        "Какой {c} подходит для первого обращения?",
        "Какой {c} имеет лучшую репутацию{where}?",
        "Какой {c} самый надёжный?",
        "Какой {c} быстрее всех отвечает новым клиентам?",
        "Какой {c} подходит при небольшом бюджете?",
        "Какой {c} понятнее всего объясняет условия и цены?",
      ],
      pricing: ["Какой {c} самый доступный{where}?", "Какой {c} даёт лучшее соотношение цены и качества?", "Во сколько обходится хороший {c}{where}?"],
      reviews: ["Какой {c} получает лучшие отзывы клиентов?", "Какой {c} реже всего вызывает жалобы клиентов?", "Какой {c} выше всего оценивают клиенты{where}?"],
      comparison: "{b} или {x}: какой {c} лучше?",
      alternatives: "Какие есть лучшие альтернативы {x}?",
      brand: ["Стоит ли выбирать {b}?", "Какие плюсы и минусы у {b}?"],
    },
  },
};

/**
 * No category known: questions about the brand and "companies like" it, which claim no field of
 * business. With the person's own words ({t}), a few ask about those too.
 */
const NEUTRAL: Record<Lang, Templates & { topic: string[] }> = {
  en: {
    topic: ["Who are the best providers of {t}{where}?", "Which companies are known for {t}?", "What should I look for in a provider of {t}?"],
    discovery: [
      "Which companies are similar to {b}?",
      "What does {b} offer, and who else offers the same{where}?",
      "Which companies do customers compare with {b}?",
      "Who are the main competitors of {b}{where}?",
      "Is {b} a well-known name in its field?",
      "What are the best-rated companies like {b}{where}?",
    ],
    pricing: ["Is {b} expensive compared with similar companies?", "Which companies like {b} offer the best value for money{where}?"],
    reviews: ["What do customers say about {b}?", "Is {b} trustworthy?", "Which companies like {b} have the best reviews?"],
    comparison: "{b} vs {x}: which is better?",
    alternatives: "What are the best alternatives to {x}?",
    brand: ["What are the pros and cons of {b}?", "Would you recommend {b}?"],
  },
  de: {
    topic: ["Wer sind die besten Anbieter für {t}{where}?", "Welche Unternehmen sind für {t} bekannt?", "Worauf sollte ich bei Anbietern für {t} achten?"],
    discovery: [
      "Welche Unternehmen sind mit {b} vergleichbar?",
      "Was bietet {b} an, und wer bietet dasselbe{where}?",
      "Mit welchen Unternehmen vergleichen Kunden {b}?",
      "Wer sind die wichtigsten Wettbewerber von {b}{where}?",
      "Ist {b} in seiner Branche bekannt?",
      "Welche Unternehmen wie {b} sind am besten bewertet{where}?",
    ],
    pricing: ["Ist {b} teurer als vergleichbare Unternehmen?", "Welche Unternehmen wie {b} bieten das beste Preis-Leistungs-Verhältnis{where}?"],
    reviews: ["Was sagen Kunden über {b}?", "Ist {b} vertrauenswürdig?", "Welche Unternehmen wie {b} haben die besten Bewertungen?"],
    comparison: "{b} oder {x}: Was ist besser?",
    alternatives: "Was sind die besten Alternativen zu {x}?",
    brand: ["Was sind die Vor- und Nachteile von {b}?", "Würden Sie {b} empfehlen?"],
  },
  ru: {
    topic: ["Кто лучшие поставщики в категории «{t}»{where}?", "Какие компании известны в категории «{t}»?", "На что обратить внимание при выборе в категории «{t}»?"],
    discovery: [
      "Какие компании похожи на {b}?",
      "Что предлагает {b} и кто ещё предлагает то же самое{where}?",
      "С какими компаниями клиенты сравнивают {b}?",
      "Кто главные конкуренты {b}{where}?",
      "Насколько {b} известен в своей сфере?",
      "Какие компании, похожие на {b}, оценивают выше всего{where}?",
    ],
    pricing: ["Дороже ли {b}, чем похожие компании?", "Какие компании, похожие на {b}, дают лучшее соотношение цены и качества{where}?"],
    reviews: ["Что клиенты говорят о {b}?", "Можно ли доверять {b}?", "У каких компаний, похожих на {b}, лучшие отзывы?"],
    comparison: "{b} или {x}: что лучше?",
    alternatives: "Какие есть лучшие альтернативы {x}?",
    brand: ["Какие плюсы и минусы у {b}?", "Стоит ли выбирать {b}?"],
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

/** A made-up competitor on the stem given (each competitor its own stem, so they read apart). */
function made(random: Random, stem: string, suffixes: string[], taken: Set<string>, tld: string) {
  for (;;) {
    const name = `${stem}${random.pick(suffixes)}`;
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    return { name, aliases: [] as string[], domains: [`${name.toLowerCase().replace(/[^a-z0-9]+/g, "")}.${tld}`] };
  }
}

export type SimulatedSetupInput = {
  /** The registrable domain (the brand's own). */
  domain: string;
  /** The website as entered (host and path), whose words choose the category; the domain when absent. */
  address?: string | null;
  /** The person's own answer to "what do you sell?", if any. */
  offering?: string | null;
  language: string;
  country?: string | null;
};

/** The proposal for a website, as plain data (the JSON the simulator answers). */
export function simulateSetupProposal(input: SimulatedSetupInput) {
  const lang: Lang = (["en", "de", "ru"] as const).find((l) => input.language.toLowerCase().startsWith(l)) ?? "en";
  const address = input.address || input.domain;
  const offering = input.offering?.trim() || null;
  const random = seededRandom(`setup:${address}:${offering ?? ""}:${lang}:${input.country ?? ""}`);
  const label = input.domain.split(".")[0] ?? input.domain;
  const category = categoryOf(wordsOf(address, offering));
  const brandName = titleCase(label) || input.domain;
  const tld = input.country === "DE" ? "de" : input.country === "RU" ? "ru" : "com";
  const taken = new Set([brandName.toLowerCase()]);
  const stems = category?.stems ?? NEUTRAL_STEMS;
  const suffixes = SUFFIXES[category?.kind ?? "neutral"];
  const competitors = random
    .shuffle(stems)
    .slice(0, random.int(5, 7))
    .map((stem) => made(random, stem, suffixes, taken, tld));
  const where = input.country && COUNTRY_NAMES[lang][input.country] ? ` ${COUNTRY_NAMES[lang][input.country]}` : "";
  const fill = (template: string, x = "") =>
    template
      .replaceAll("{c}", category?.name[lang] ?? "")
      .replaceAll("{t}", offering ?? "")
      .replaceAll("{b}", brandName)
      .replaceAll("{x}", x)
      .replaceAll("{where}", where);
  const t = category ? TEMPLATES[category.kind][lang] : NEUTRAL[lang];
  const topic = !category && offering ? NEUTRAL[lang].topic : [];
  const questions = [
    ...topic.map((q) => ({ text: fill(q), tag: "discovery" })),
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
export async function simulateSetupCall(input: SimulatedSetupInput & { prompt: string; signal: AbortSignal }): Promise<ProviderResponse> {
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
