// The AI crawlers and fetchers Beacon recognises in access logs, as data. Base: the ai.robots.txt
// project's list (github.com/ai-robots-txt/ai.robots.txt, robots.json: names, operators and what
// each agent is for), checked against the operators' own crawler pages for the user agent tokens
// and purposes; plus the search crawlers whose index AI answers draw on (Googlebot, Bingbot,
// YandexBot, Applebot). To add an agent: one entry here and a row in crawlers.test.ts.
//
// purpose: "training" collects pages to train models; "search" builds the index an assistant
// searches; "user" fetches a page live because a person asked the assistant about it.
// token: matched case-insensitively anywhere in the User-Agent header. Robots-only tokens
// (Google-Extended, Applebot-Extended) never appear in a User-Agent: they are listed for robots.txt
// (site readiness) with uaToken false.

export const CRAWLER_LIST_SOURCE = "ai.robots.txt (github.com/ai-robots-txt/ai.robots.txt) and the operators' crawler documentation";
export const CRAWLER_LIST_DATE = "2026-12-08";

export type CrawlerPurpose = "training" | "search" | "user";

export type Crawler = {
  /** The agent's name as its operator writes it; stored with each hit. */
  name: string;
  operator: string;
  purpose: CrawlerPurpose;
  /** Whether the name appears in the User-Agent header (false: a robots.txt token only). */
  uaToken: boolean;
  /** Which shipped IP range snapshot verifies it (lib/traffic/ranges/<file>.json), if its operator publishes one. */
  ranges?: string;
};

const c = (name: string, operator: string, purpose: CrawlerPurpose, extra: Partial<Pick<Crawler, "uaToken" | "ranges">> = {}): Crawler => ({
  name,
  operator,
  purpose,
  uaToken: extra.uaToken ?? true,
  ...(extra.ranges ? { ranges: extra.ranges } : {}),
});

export const CRAWLERS: readonly Crawler[] = [
  c("GPTBot", "OpenAI", "training", { ranges: "gptbot" }),
  c("OAI-SearchBot", "OpenAI", "search", { ranges: "searchbot" }),
  c("ChatGPT-User", "OpenAI", "user"),
  c("ClaudeBot", "Anthropic", "training"),
  c("Claude-SearchBot", "Anthropic", "search"),
  c("Claude-User", "Anthropic", "user"),
  c("Claude-Web", "Anthropic", "user"),
  c("anthropic-ai", "Anthropic", "training"),
  c("PerplexityBot", "Perplexity", "search"),
  c("Perplexity-User", "Perplexity", "user"),
  c("Googlebot", "Google", "search"),
  c("Google-Extended", "Google", "training", { uaToken: false }),
  c("Google-CloudVertexBot", "Google", "search"),
  c("GoogleOther", "Google", "training"),
  c("Gemini-Deep-Research", "Google", "user"),
  c("Google-NotebookLM", "Google", "user"),
  c("bingbot", "Microsoft", "search"),
  c("YandexBot", "Yandex", "search"),
  c("YandexAdditional", "Yandex", "search"),
  c("Applebot", "Apple", "search"),
  c("Applebot-Extended", "Apple", "training", { uaToken: false }),
  c("Amazonbot", "Amazon", "training"),
  c("Amzn-SearchBot", "Amazon", "search"),
  c("Amzn-User", "Amazon", "user"),
  c("Bytespider", "ByteDance", "training"),
  c("meta-externalagent", "Meta", "training"),
  c("meta-externalfetcher", "Meta", "user"),
  c("FacebookBot", "Meta", "training"),
  c("CCBot", "Common Crawl", "training"),
  c("DuckAssistBot", "DuckDuckGo", "user"),
  c("MistralAI-User", "Mistral", "user"),
  c("cohere-ai", "Cohere", "user"),
  c("cohere-training-data-crawler", "Cohere", "training"),
  c("YouBot", "You.com", "search"),
  c("PetalBot", "Huawei", "search"),
  c("PanguBot", "Huawei", "training"),
  c("AI2Bot", "Allen Institute for AI", "training"),
  c("Diffbot", "Diffbot", "training"),
  c("Timpibot", "Timpi", "training"),
  c("omgili", "Webz.io", "training"),
  c("ImagesiftBot", "ImageSift", "training"),
];
