// Real User-Agent strings as the operators document them (and browsers' and other bots', which name no crawler).
import { describe, expect, it } from "vitest";
import { classifyUserAgent } from "@/lib/traffic/classify";
import { CRAWLERS } from "@/lib/traffic/crawlers";

const TABLE: [string, string | null, string | null, string | null][] = [
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)", "GPTBot", "OpenAI", "training"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", "OAI-SearchBot", "OpenAI", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User", "OpenAI", "user"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "ClaudeBot", "Anthropic", "training"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)", "Claude-User", "Anthropic", "user"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)", "Claude-SearchBot", "Anthropic", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "PerplexityBot", "Perplexity", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)", "Perplexity-User", "Perplexity", "user"],
  ["Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.139 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", "Google", "search"],
  ["Googlebot-Image/1.0", "Googlebot", "Google", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search)", "Google-CloudVertexBot", "Google", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot", "Microsoft", "search"],
  ["Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot", "Yandex", "search"],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot", "Apple", "search"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36", "Amazonbot", "Amazon", "training"],
  ["Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider", "ByteDance", "training"],
  ["meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalagent", "Meta", "training"],
  ["meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalfetcher", "Meta", "user"],
  ["Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)", "FacebookBot", "Meta", "training"],
  ["CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "Common Crawl", "training"],
  ["DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)", "DuckAssistBot", "DuckDuckGo", "user"],
  ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)", "MistralAI-User", "Mistral", "user"],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", null, null, null],
  ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", null, null, null],
  ["Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", null, null, null],
  ["curl/8.5.0", null, null, null],
  ["", null, null, null],
  // A token inside a longer word names nothing.
  ["NotGPTBotany/1.0", null, null, null],
];

describe("classifyUserAgent", () => {
  it.each(TABLE)("%s", (ua, name, operator, purpose) => {
    const crawler = classifyUserAgent(ua);
    expect(crawler?.name ?? null).toBe(name);
    expect(crawler?.operator ?? null).toBe(operator);
    expect(crawler?.purpose ?? null).toBe(purpose);
  });

  it("matches the token whatever its case, and the same string the same way twice (cache)", () => {
    expect(classifyUserAgent("mozilla/5.0 (compatible; gptbot/1.2)")?.name).toBe("GPTBot");
    expect(classifyUserAgent("mozilla/5.0 (compatible; gptbot/1.2)")?.name).toBe("GPTBot");
  });

  it("lists every crawler once, robots-only tokens never matched", () => {
    expect(new Set(CRAWLERS.map((c) => c.name.toLowerCase())).size).toBe(CRAWLERS.length);
    expect(classifyUserAgent("Mozilla/5.0 (compatible; Google-Extended)")?.name ?? null).toBeNull();
  });
});
