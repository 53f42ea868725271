// What the simulator's first-run suggestions (simulator-setup-suggestions.ts) guess a website
// sells, from the words of its address and, when given, the person's own "what do you sell".
// A guess the words support, or none: an address with no known word gets neutral questions about
// "companies like <brand>", never a category drawn at random (a tent shop once became an
// "email marketing platform"). Pure and deterministic.
import { parse } from "tldts";

export type Lang = "en" | "de" | "ru";
/** Which question templates fit: software bought by teams, goods bought by people, services chosen by people. */
export type Kind = "software" | "goods" | "services";

export type Category = {
  key: string;
  kind: Kind;
  /**
   * Lowercase words that point at the category. One of 4 letters or more counts anywhere in a
   * word of the address ("tasklane" has "task"); a shorter one only as the whole word or with a
   * plural s ("crm", "cars"), since "car" hides in "card" and "law" in "lawn".
   */
  keywords: string[];
  /**
   * The category in a question: English a countable noun, German a feminine noun (the templates
   * say "die beste", "eine gute"), Russian a masculine one used as the subject ("Какой {c} ...").
   */
  name: Record<Lang, string>;
  /** Word stems of the made-up competitors' names. */
  stems: string[];
};

export const CATEGORIES: Category[] = [
  // Software (the categories the simulator always knew; their names are unchanged).
  { key: "crm", kind: "software", keywords: ["crm", "sales", "leads", "pipeline", "deal"], name: { en: "CRM", de: "CRM-Software", ru: "CRM-сервис" }, stems: ["Pipe", "Deal", "Lead", "Close", "Funnel", "Contact"] },
  { key: "projects", kind: "software", keywords: ["task", "project", "kanban", "sprint", "planner", "roadmap", "todo"], name: { en: "project management tool", de: "Projektmanagement-Software", ru: "сервис управления проектами" }, stems: ["Task", "Sprint", "Plan", "Board", "Flow", "Track"] },
  { key: "email", kind: "software", keywords: ["mail", "newsletter", "inbox", "mailer"], name: { en: "email marketing platform", de: "E-Mail-Marketing-Plattform", ru: "сервис email-рассылок" }, stems: ["Mail", "Send", "Letter", "Inbox", "Post", "Reach"] },
  { key: "accounting", kind: "software", keywords: ["ledger", "invoice", "accounting", "bookkeep", "tax", "payroll", "billing"], name: { en: "accounting software", de: "Buchhaltungssoftware", ru: "бухгалтерский сервис" }, stems: ["Ledger", "Book", "Tally", "Sum", "Count", "Bill"] },
  { key: "ecommerce", kind: "software", keywords: ["commerce", "checkout", "storefront", "cart"], name: { en: "e-commerce platform", de: "E-Commerce-Plattform", ru: "конструктор интернет-магазинов" }, stems: ["Cart", "Shop", "Store", "Sell", "Order", "Basket"] },
  { key: "hosting", kind: "software", keywords: ["cloud", "host", "hosting", "server", "deploy", "vps", "cdn", "datacenter"], name: { en: "cloud hosting provider", de: "Cloud-Hosting-Plattform", ru: "облачный хостинг" }, stems: ["Cloud", "Stack", "Node", "Rack", "Host", "Deploy"] },
  // Goods people buy.
  { key: "outdoor", kind: "goods", keywords: ["outdoor", "camping", "tent", "hiking", "trek", "trail", "climb", "backpack", "alpine", "mountain", "expedition", "zelt", "wandern"], name: { en: "outdoor gear brand", de: "Outdoor-Marke", ru: "бренд туристического снаряжения" }, stems: ["Trail", "Summit", "Peak", "Ridge", "Camp", "Pine", "Canyon", "Fjord"] },
  { key: "fashion", kind: "goods", keywords: ["fashion", "apparel", "clothing", "clothes", "wear", "dress", "shoe", "sneaker", "denim", "jeans", "boutique", "velvet", "sportswear"], name: { en: "fashion brand", de: "Modemarke", ru: "бренд одежды" }, stems: ["Thread", "Loom", "Stitch", "Weave", "Tailor", "Linen", "Silk", "Seam"] },
  { key: "beauty", kind: "goods", keywords: ["beauty", "cosmetic", "skincare", "skin", "makeup", "salon", "hair", "perfume", "serum"], name: { en: "skincare and beauty brand", de: "Kosmetikmarke", ru: "бренд косметики" }, stems: ["Glow", "Bloom", "Velvet", "Pure", "Dew", "Rose", "Lumi", "Petal"] },
  { key: "furniture", kind: "goods", keywords: ["furniture", "sofa", "chair", "table", "interior", "decor", "mattress", "lamp", "carpet", "garden", "lawn", "homeware", "moebel"], name: { en: "furniture store", de: "Möbelmarke", ru: "мебельный магазин" }, stems: ["Oak", "Birch", "Maple", "Nest", "Loft", "Haven", "Cedar", "Linden"] },
  { key: "pets", kind: "goods", keywords: ["pet", "petfood", "dog", "cat", "puppy", "kitten", "vet", "paw", "animal"], name: { en: "pet supplies brand", de: "Tierbedarfsmarke", ru: "зоомагазин" }, stems: ["Paw", "Whisker", "Tail", "Fetch", "Bark", "Purr", "Snout", "Kibble"] },
  // Services people choose.
  { key: "food", kind: "services", keywords: ["restaurant", "food", "pizza", "burger", "sushi", "cafe", "coffee", "bakery", "bistro", "kitchen", "grill", "dining", "recipe", "deli", "catering"], name: { en: "restaurant", de: "Gaststätte", ru: "ресторан" }, stems: ["Fork", "Table", "Spoon", "Olive", "Ember", "Basil", "Saffron", "Hearth"] },
  { key: "travel", kind: "services", keywords: ["travel", "trip", "tour", "hotel", "flight", "holiday", "vacation", "booking", "hostel", "cruise", "voyage", "reise"], name: { en: "travel booking site", de: "Reiseplattform", ru: "сервис бронирования путешествий" }, stems: ["Voyage", "Atlas", "Compass", "Horizon", "Journey", "Roam", "Jet", "Globe"] },
  { key: "fitness", kind: "services", keywords: ["fitness", "gym", "yoga", "pilates", "workout", "crossfit", "cardio", "sport"], name: { en: "gym", de: "Fitnessstudio-Kette", ru: "фитнес-клуб" }, stems: ["Pulse", "Core", "Flex", "Iron", "Stride", "Motion", "Vigor", "Lift"] },
  { key: "education", kind: "services", keywords: ["school", "academy", "course", "learn", "tutor", "education", "edu", "university", "college", "study", "lesson", "career"], name: { en: "online learning platform", de: "Lernplattform", ru: "сервис онлайн-обучения" }, stems: ["Scholar", "Quill", "Mentor", "Campus", "Sage", "Lexi", "Brain", "Chalk"] },
  { key: "finance", kind: "services", keywords: ["bank", "banking", "finance", "loan", "credit", "mortgage", "invest", "savings", "fintech", "wealth", "money"], name: { en: "bank", de: "Bank", ru: "банк" }, stems: ["Capital", "Sterling", "Crown", "Union", "Mint", "Vault", "Trust", "Coin"] },
  { key: "insurance", kind: "services", keywords: ["insurance", "insure", "versicherung", "assurance"], name: { en: "insurance company", de: "Versicherung", ru: "страховщик" }, stems: ["Shield", "Guard", "Anchor", "Harbor", "Aegis", "Safe", "Keystone", "Bastion"] },
  { key: "realestate", kind: "services", keywords: ["realestate", "realty", "estate", "property", "homes", "housing", "apartment", "rental", "immo", "realtor"], name: { en: "real estate agency", de: "Maklerfirma", ru: "риелтор" }, stems: ["Keys", "Gable", "Brick", "Manor", "Dwell", "Porch", "Terrace", "Abode"] },
  { key: "automotive", kind: "services", keywords: ["auto", "car", "motor", "vehicle", "garage", "tyre", "petrol", "taxi", "transport", "dealer", "trailer"], name: { en: "car dealership", de: "Autohaus-Kette", ru: "автосалон" }, stems: ["Wheel", "Drive", "Gear", "Torque", "Piston", "Axle", "Road", "Motor"] },
  { key: "health", kind: "services", keywords: ["health", "clinic", "medical", "doctor", "dental", "dentist", "pharma", "pharmacy", "therapy", "care", "physio", "hospital", "wellness"], name: { en: "clinic", de: "Klinik", ru: "медицинский центр" }, stems: ["Vita", "Medi", "Cura", "Heal", "Well", "Salus", "Remedy", "Cardia"] },
  { key: "legal", kind: "services", keywords: ["law", "lawfirm", "legal", "lawyer", "attorney", "solicitor", "notary", "kanzlei", "anwalt", "advocate"], name: { en: "law firm", de: "Kanzlei", ru: "юрист" }, stems: ["Lex", "Justa", "Verdict", "Counsel", "Statute", "Charter", "Equity", "Tribune"] },
  { key: "agency", kind: "services", keywords: ["agency", "marketing", "seo", "advertising", "branding", "content", "adverts"], name: { en: "marketing agency", de: "Marketingagentur", ru: "подрядчик по маркетингу" }, stems: ["Spark", "Signal", "Pitch", "Echo", "Buzz", "Mosaic", "Prism", "Amplify"] },
];

/** Stems for competitors when no category is known: words that name no field of business. */
export const NEUTRAL_STEMS = ["Nova", "Vertex", "Apex", "Zenith", "Orbit", "Quanta", "Nimbus", "Solis"];

/** Parts of addresses that say nothing about what a site sells. */
const STOPWORDS = new Set(["www", "m", "en", "de", "ru", "fr", "es", "uk", "us", "index", "html", "htm", "php", "aspx", "catalog", "category", "categories", "page", "pages"]);

export type Word = { word: string; weight: number };

/**
 * The words of an address, public suffix and "www" left out: the registrable name's words weigh
 * 2 (what a company calls itself says most), subdomains and path 1, and the person's own
 * description 3. "northwind-outdoor.co.uk/tents" -> northwind, outdoor (2), tents (1).
 */
export function wordsOf(address: string, offering?: string | null): Word[] {
  const split = (text: string, weight: number) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !/^\d+$/.test(w) && !STOPWORDS.has(w))
      .map((word) => ({ word, weight }));
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`;
  const host = parse(url, { allowPrivateDomains: true });
  let path = "";
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    // An address that is no URL still has its host's words.
  }
  return [...split(host.domainWithoutSuffix ?? "", 2), ...split(host.subdomain ?? "", 1), ...split(path, 1), ...split(offering ?? "", 3)];
}

/** Whether a keyword points at a word, by the rule of Category.keywords. */
export const keywordIn = (keyword: string, word: string) => (keyword.length >= 4 ? word.includes(keyword) : word === keyword || word === `${keyword}s`);

/**
 * The category the words point at, or null. Each word goes to the category of the longest keyword
 * in it ("carpet" is furniture although it has "car"); the category whose words weigh most wins,
 * ties to the longer keyword, then to the table's order.
 */
export function categoryOf(words: Word[]): Category | null {
  const scores = new Map<Category, { weight: number; longest: number }>();
  for (const { word, weight } of words) {
    let best: { category: Category; length: number } | null = null;
    for (const category of CATEGORIES) {
      for (const keyword of category.keywords) {
        if (keywordIn(keyword, word) && (!best || keyword.length > best.length)) best = { category, length: keyword.length };
      }
    }
    if (!best) continue;
    const score = scores.get(best.category) ?? { weight: 0, longest: 0 };
    scores.set(best.category, { weight: score.weight + weight, longest: Math.max(score.longest, best.length) });
  }
  let winner: Category | null = null;
  for (const category of CATEGORIES) {
    const score = scores.get(category);
    const top = winner && scores.get(winner)!;
    if (score && (!top || score.weight > top.weight || (score.weight === top.weight && score.longest > top.longest))) winner = category;
  }
  return winner;
}
