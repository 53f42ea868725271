// Words that answers set out like names but that name no product (lib/analysis/brand-candidates.ts):
// the labels of list items, headings and table rows in English, Russian and German answers. Keys
// are case- and accent-folded (candidateKey), so "Key Features", "key features" and "Key features"
// are one entry. Not exhaustive: a label missing here can still be caught by the name test (it
// must be written with a capital in every word) and by the alert's threshold; add what shows up.

const ENGLISH = [
  "pros", "cons", "pros and cons", "pros & cons", "advantages", "disadvantages", "strengths", "weaknesses", "drawbacks", "downsides",
  "limitations", "benefits", "pricing", "price", "prices", "cost", "costs", "plans", "free plan", "free trial", "paid plans", "starting price",
  "features", "key features", "main features", "core features", "top features", "notable features", "highlights", "key highlights",
  "best for", "ideal for", "good for", "great for", "who it's for", "use case", "use cases", "target audience",
  "overview", "summary", "conclusion", "conclusions", "verdict", "final verdict", "recommendation", "recommendations", "my recommendation",
  "bottom line", "final thoughts", "takeaway", "key takeaways", "tl;dr", "tldr", "note", "notes", "tip", "tips", "important", "caveat", "caveats",
  "integrations", "integration", "support", "customer support", "ease of use", "usability", "scalability", "security", "compliance",
  "customization", "customisation", "automation", "reporting", "analytics", "mobile app", "onboarding", "setup", "implementation",
  "user interface", "interface", "ui", "ux", "performance", "reliability", "flexibility", "value", "rating", "ratings", "score", "reviews",
  "comparison", "comparison table", "quick comparison", "alternatives", "other options", "other alternatives", "honorable mentions",
  "honourable mentions", "also consider", "considerations", "key considerations", "factors to consider", "criteria", "next steps",
  "why", "how to choose", "what to look for", "sources", "references", "faq", "faqs", "example", "examples", "feature", "tool", "tools",
  "name", "product", "platform", "software", "vendor", "category", "description", "details", "notes", "website", "free", "paid", "yes", "no",
  "n/a", "budget", "enterprise", "small business", "startups", "small teams", "large teams", "gdpr", "api", "crm", "email", "sales",
];

const RUSSIAN = [
  "плюсы", "минусы", "плюсы и минусы", "преимущества", "недостатки", "сильные стороны", "слабые стороны", "ограничения",
  "цена", "цены", "стоимость", "тарифы", "тариф", "бесплатный тариф", "пробный период", "особенности", "ключевые особенности",
  "функции", "ключевые функции", "основные функции", "возможности", "ключевые возможности", "кому подходит", "подходит для",
  "для кого", "итог", "итоги", "вывод", "выводы", "резюме", "обзор", "заключение", "рекомендация", "рекомендации", "совет", "советы",
  "примечание", "важно", "интеграции", "поддержка", "удобство", "удобство использования", "масштабируемость", "безопасность",
  "автоматизация", "отчёты", "отчеты", "аналитика", "мобильное приложение", "внедрение", "настройка", "интерфейс", "сравнение",
  "альтернативы", "другие варианты", "критерии", "критерии выбора", "как выбрать", "на что обратить внимание", "источники",
  "сервис", "название", "продукт", "платформа", "описание", "да", "нет", "бюджет", "малый бизнес", "стартапы",
];

const GERMAN = [
  "vorteile", "nachteile", "vor- und nachteile", "stärken", "schwächen", "einschränkungen", "preis", "preise", "kosten", "preismodell",
  "tarif", "tarife", "kostenloser tarif", "testphase", "funktionen", "hauptfunktionen", "wichtige funktionen", "merkmale", "besonderheiten",
  "geeignet für", "ideal für", "zielgruppe", "fazit", "zusammenfassung", "überblick", "übersicht", "empfehlung", "empfehlungen",
  "hinweis", "hinweise", "tipp", "tipps", "wichtig", "integrationen", "support", "kundensupport", "benutzerfreundlichkeit",
  "bedienbarkeit", "skalierbarkeit", "sicherheit", "datenschutz", "dsgvo", "automatisierung", "berichte", "mobile app", "einrichtung",
  "einführung", "oberfläche", "vergleich", "alternativen", "weitere optionen", "kriterien", "auswahlkriterien", "worauf achten",
  "quellen", "anbieter", "produkt", "beschreibung", "ja", "nein", "budget", "kleine unternehmen", "startups",
];

/** Labels that are never a product's name, folded. */
export const GENERIC_LABELS: ReadonlySet<string> = new Set([...ENGLISH, ...RUSSIAN, ...GERMAN]);

/** First words of headings and labels that introduce something other than a name ("Best for startups", «Лучшие CRM»). */
export const NON_NAME_OPENERS: ReadonlySet<string> = new Set([
  "best", "top", "why", "how", "what", "which", "when", "where", "who", "other", "more", "final", "bottom", "key", "main", "our", "my",
  "your", "a", "an", "the", "if", "for", "step", "option", "comparison", "summary", "conclusion", "overview", "pros", "cons",
  "лучшие", "лучший", "лучшая", "топ", "почему", "как", "что", "какую", "какой", "какие", "кому", "когда", "другие", "итог", "итоги",
  "вывод", "если", "для", "сравнение", "обзор", "плюсы", "минусы",
  "die", "der", "das", "beste", "besten", "bestes", "warum", "wie", "was", "welche", "welches", "welcher", "wann", "weitere", "andere",
  "fazit", "vergleich", "für", "wenn", "vorteile", "nachteile",
]);

/** A table whose first column is headed like this lists products in it (plain cells are taken too). */
export const TABLE_NAME_COLUMNS: readonly string[] = [
  "tool", "product", "name", "platform", "service", "software", "crm", "app", "vendor", "solution", "option", "brand", "company", "provider",
  "сервис", "инструмент", "продукт", "платформ", "название", "решение", "систем", "компани", "бренд",
  "anbieter", "lösung", "losung", "produkt", "werkzeug", "marke", "unternehmen",
];

/** A table whose first column is headed like this lists features or criteria (its rows name no product). */
export const TABLE_ATTRIBUTE_COLUMNS: readonly string[] = [
  "feature", "criteri", "aspect", "categor", "metric", "factor", "capabilit", "attribute", "plan",
  "критери", "параметр", "характеристик", "функци", "аспект", "показател",
  "merkmal", "kriteri", "funktion", "eigenschaft", "aspekt",
];
