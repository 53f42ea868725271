// The simulator's answers in the prompt's language: English, Russian or German phrases, and in
// Russian the names declined as the sentence needs («у Люмена», «в Люмене», «с Люменом») when a
// name has a Cyrillic spelling among its aliases (Latin names stay as written, as Russian text
// usually keeps them). German adds the genitive -s ("Lumen CRMs Preismodell"). So the demo shows
// what the analysis must find in such answers (lib/analysis/inflection.ts).
import RussianNouns from "russian-nouns-js";

export type AnswerLanguage = "en" | "ru" | "de";

const CYRILLIC = /\p{Script=Cyrillic}/u;

/** The prompt's language when it is one the simulator writes, else guessed from the prompt's script. */
export function answerLanguageOf(language: string | null | undefined, prompt: string): AnswerLanguage {
  const code = language?.trim().toLowerCase().split("-")[0];
  if (code === "ru" || code === "de" || code === "en") return code;
  return CYRILLIC.test(prompt) ? "ru" : "en";
}

/** How a name is written in a sentence: its cases (Russian) or its genitive (German). */
export type NameForms = { nominative: string; genitive: string; prepositional: string; instrumental: string };

const engine = new RussianNouns.Engine();
const DECLINABLE = /^[\p{Script=Cyrillic}]+[бвгджзклмнпрстфхцчшщ]$/u;

function russianCase(word: string, grammaticalCase: string): string {
  try {
    return engine.decline({ text: word, gender: RussianNouns.Gender.MASCULINE }, grammaticalCase)[0] ?? word;
  } catch {
    return word;
  }
}

/**
 * The name as the answer writes it: in Russian its Cyrillic alias if it has one (declined when
 * its last word ends in a consonant), in German with the genitive -s; else as it is.
 */
export function nameForms(entity: { name: string; aliases?: string[] }, language: AnswerLanguage): NameForms {
  const same = (name: string): NameForms => ({ nominative: name, genitive: name, prepositional: name, instrumental: name });
  if (language === "de") return { ...same(entity.name), genitive: /[sßxz]$/iu.test(entity.name) ? `${entity.name}'` : `${entity.name}s` };
  if (language !== "ru") return same(entity.name);
  const cyrillic = [entity.name, ...(entity.aliases ?? [])].find((n) => CYRILLIC.test(n));
  if (!cyrillic) return same(entity.name);
  const words = cyrillic.split(/\s+/);
  const last = words.pop()!;
  if (!DECLINABLE.test(last)) return same(cyrillic);
  const head = words.length ? `${words.join(" ")} ` : "";
  const { Case } = RussianNouns;
  return {
    nominative: cyrillic,
    genitive: head + russianCase(last, Case.GENITIVE),
    prepositional: head + russianCase(last, Case.PREPOSITIONAL),
    instrumental: head + russianCase(last, Case.INSTRUMENTAL),
  };
}

type Sentence = (n: NameForms) => string;

/** What the simulator says, per language. Sentences about a name start with it (the nominative). */
export type Phrases = {
  praise: Sentence[];
  neutral: Sentence[];
  criticism: Sentence[];
  /** A second, neutral sentence about a name in another case, as people write. */
  aside: Sentence[];
  opening: { claude: (topic: string) => string; gemini: (topic: string) => string; other: string };
  table: { header: [string, string, string]; bestFor: string[] };
  noneFits: string;
  closing: Sentence;
  closingNone: string;
};

export const PHRASES: Record<AnswerLanguage, Phrases> = {
  en: {
    praise: [
      (n) => `${n.nominative} is widely praised for its clean interface and quick setup.`,
      (n) => `${n.nominative} stands out for strong automation and reliable reporting.`,
      (n) => `${n.nominative} is a favourite of small teams thanks to transparent pricing.`,
      (n) => `${n.nominative} offers excellent integrations and responsive support.`,
    ],
    neutral: [
      (n) => `${n.nominative} covers the core features most teams need.`,
      (n) => `${n.nominative} is a solid, well-known option with a broad feature set.`,
      (n) => `${n.nominative} offers a free tier and paid plans that scale with seats.`,
      (n) => `${n.nominative} is frequently mentioned in comparisons of this category.`,
    ],
    criticism: [
      (n) => `${n.nominative} can get expensive as the team grows, and some users find it complex.`,
      (n) => `${n.nominative} has a steeper learning curve and add-ons that raise the price.`,
      (n) => `${n.nominative} is criticised for slow support and a cluttered interface.`,
      (n) => `${n.nominative} may be more than a small team needs, with a lengthy setup.`,
    ],
    aside: [],
    opening: {
      claude: (topic) => `Good question. The right answer depends on your team's size, budget and workflow, but here is how the main options compare for "${topic}".`,
      gemini: (topic) => `Here's an overview of the leading options for: ${topic}.`,
      other: "There are several strong options. Here are the ones most often recommended:",
    },
    table: { header: ["Tool", "Best for", "Notes"], bestFor: ["small teams", "growing companies", "enterprises", "sales-led teams"] },
    noneFits: "There is no single best choice; it depends on your requirements. Consider trialling two or three tools before committing.",
    closing: (n) => `Overall, ${n.nominative} is a good place to start, but compare pricing and integrations against your needs.`,
    closingNone: "If you share more about your team, I can narrow this down.",
  },
  ru: {
    praise: [
      (n) => `${n.nominative} хвалят за понятный интерфейс и быструю настройку.`,
      (n) => `${n.nominative} выделяется сильной автоматизацией и надёжными отчётами.`,
      (n) => `${n.nominative} нравится небольшим командам благодаря прозрачным ценам.`,
      (n) => `${n.nominative} предлагает отличные интеграции и отзывчивую поддержку.`,
    ],
    neutral: [
      (n) => `${n.nominative} покрывает основные функции, которые нужны большинству команд.`,
      (n) => `${n.nominative} часто упоминается в сравнениях систем этого класса.`,
      (n) => `${n.nominative} предлагает бесплатный тариф и платные планы по числу пользователей.`,
    ],
    criticism: [
      (n) => `${n.nominative} быстро дорожает с ростом команды, а некоторым пользователям кажется сложным.`,
      (n) => `${n.nominative} критикуют за медленную поддержку и перегруженный интерфейс.`,
      (n) => `${n.nominative} может оказаться избыточным и долгим во внедрении для маленькой команды.`,
    ],
    aside: [
      (n) => `У ${n.genitive} есть мобильное приложение и открытый API.`,
      (n) => `В ${n.prepositional} воронка продаж настраивается без администратора.`,
      (n) => `С ${n.instrumental} работают и стартапы, и компании среднего размера.`,
    ],
    opening: {
      claude: (topic) => `Хороший вопрос. Ответ зависит от размера команды, бюджета и процессов, но вот как сравниваются основные варианты для запроса «${topic}».`,
      gemini: (topic) => `Вот обзор ведущих вариантов по запросу: ${topic}.`,
      other: "Есть несколько сильных вариантов. Чаще всего рекомендуют такие:",
    },
    table: { header: ["Сервис", "Кому подходит", "Заметки"], bestFor: ["небольшим командам", "растущим компаниям", "крупному бизнесу", "отделам продаж"] },
    noneFits: "Единственно верного выбора нет: всё зависит от ваших требований. Попробуйте два-три сервиса, прежде чем решать.",
    closing: (n) => `В целом начать стоит с ${n.genitive}, но сравните цены и интеграции со своими задачами.`,
    closingNone: "Расскажите подробнее о команде, и я помогу сузить выбор.",
  },
  de: {
    praise: [
      (n) => `${n.nominative} wird für die klare Oberfläche und die schnelle Einrichtung gelobt.`,
      (n) => `${n.nominative} überzeugt mit starker Automatisierung und zuverlässigen Berichten.`,
      (n) => `${n.nominative} ist bei kleinen Teams wegen der transparenten Preise beliebt.`,
    ],
    neutral: [
      (n) => `${n.nominative} deckt die Kernfunktionen ab, die die meisten Teams brauchen.`,
      (n) => `${n.nominative} taucht in vielen Vergleichen dieser Kategorie auf.`,
      (n) => `${n.nominative} bietet einen kostenlosen Tarif und Pläne pro Nutzer.`,
    ],
    criticism: [
      (n) => `${n.nominative} wird mit wachsendem Team teuer, und manche finden es kompliziert.`,
      (n) => `${n.nominative} wird für langsamen Support und eine überladene Oberfläche kritisiert.`,
      (n) => `${n.nominative} ist für ein kleines Team oft zu umfangreich, die Einführung dauert lange.`,
    ],
    aside: [(n) => `${n.genitive} Preismodell richtet sich nach der Zahl der Nutzer.`],
    opening: {
      claude: (topic) => `Gute Frage. Die Antwort hängt von Teamgröße, Budget und Arbeitsweise ab, aber so schneiden die wichtigsten Optionen für „${topic}" ab.`,
      gemini: (topic) => `Hier ein Überblick über die führenden Optionen für: ${topic}.`,
      other: "Es gibt mehrere gute Optionen. Am häufigsten empfohlen werden diese:",
    },
    table: { header: ["Tool", "Geeignet für", "Hinweise"], bestFor: ["kleine Teams", "wachsende Unternehmen", "Konzerne", "Vertriebsteams"] },
    noneFits: "Die eine beste Wahl gibt es nicht; es kommt auf Ihre Anforderungen an. Testen Sie zwei oder drei Tools, bevor Sie sich festlegen.",
    closing: (n) => `Insgesamt ist ${n.nominative} ein guter Ausgangspunkt, aber vergleichen Sie Preise und Integrationen mit Ihren Anforderungen.`,
    closingNone: "Wenn Sie mehr über Ihr Team erzählen, kann ich die Auswahl eingrenzen.",
  },
};
