// Which page views an assistant sent: real referrers and utm tags, and properties over generated
// URLs (any subdomain, port, path, query and fragment) for the parsing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ASSISTANTS } from "@/lib/traffic/assistants";
import { assistantOfReferrer, classifyVisit } from "@/lib/traffic/visit-source";

const TABLE: [referrer: string, landing: string, assistant: string | null][] = [
  ["https://chatgpt.com/", "https://acme.com/pricing", "ChatGPT"],
  ["https://chat.openai.com/c/123", "https://acme.com/", "ChatGPT"],
  ["", "https://acme.com/pricing?utm_source=chatgpt.com", "ChatGPT"],
  ["https://www.perplexity.ai/", "https://www.acme.com/blog/post", "Perplexity"],
  ["https://gemini.google.com/", "https://acme.com/", "Gemini"],
  ["https://copilot.microsoft.com/", "https://acme.com/", "Copilot"],
  ["https://claude.ai/", "https://acme.com/", "Claude"],
  ["https://alice.yandex.ru/", "https://acme.ru/", "Alice"],
  ["https://giga.chat/", "https://acme.ru/", "GigaChat"],
  ["https://chat.deepseek.com/", "https://acme.com/", "DeepSeek"],
  ["https://grok.com/", "https://acme.com/", "Grok"],
  ["https://www.meta.ai/", "https://acme.com/", "Meta AI"],
  ["", "https://acme.com/?utm_source=Perplexity", "Perplexity"],
  ["", "https://acme.com/?utm_source=claude.ai&utm_medium=referral", "Claude"],
  // The referrer wins over a utm tag that names another assistant.
  ["https://claude.ai/", "https://acme.com/?utm_source=chatgpt.com", "Claude"],
  // Not an assistant: search engines, other sites, look-alike hosts, no referrer, other schemes.
  ["https://www.google.com/", "https://acme.com/", null],
  ["https://mail.google.com/", "https://acme.com/", null],
  ["https://notchatgpt.com/", "https://acme.com/", null],
  ["https://chatgpt.com.evil.example/", "https://acme.com/", null],
  ["", "https://acme.com/?utm_source=newsletter", null],
  ["", "https://acme.com/", null],
  ["android-app://com.openai.chatgpt/", "https://acme.com/", null],
  ["https://chatgpt.com/", "javascript:alert(1)", null],
  ["https://chatgpt.com/", "not a url", null],
];

describe("classifyVisit", () => {
  it.each(TABLE)("%s -> %s is %s", (referrer, url, assistant) => {
    expect(classifyVisit({ url, referrer })?.assistant.name ?? null).toBe(assistant);
  });

  it("knows every listed host, and every name is unique", () => {
    for (const a of ASSISTANTS) for (const host of a.hosts) expect(assistantOfReferrer(`https://${host}/`)?.name).toBe(a.name);
    expect(new Set(ASSISTANTS.map((a) => a.name)).size).toBe(ASSISTANTS.length);
  });

  const assistant = fc.constantFrom(...ASSISTANTS);
  // A host label a browser would send: not an invalid punycode label ("xn--a"), which no URL parses.
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => URL.canParse(`https://${l}.example/`));
  const segment = fc.webSegment();

  it("a referrer from an assistant's host or any subdomain of it, with any port, path and query, names it", () => {
    fc.assert(
      fc.property(assistant, fc.array(label, { maxLength: 2 }), fc.option(fc.integer({ min: 1, max: 65535 })), fc.array(segment, { maxLength: 4 }), fc.webQueryParameters(), (a, subs, port, path, query) => {
        const host = [...subs, a.hosts[0]].join(".");
        const referrer = `https://${host}${port ? `:${port}` : ""}/${path.join("/")}?${query}`;
        expect(classifyVisit({ url: "https://acme.com/", referrer })?.assistant.name).toBe(a.name);
      }),
    );
  });

  it("a host that only contains an assistant's host names nothing", () => {
    fc.assert(
      fc.property(assistant, label, fc.domain(), (a, prefix, suffix) => {
        expect(assistantOfReferrer(`https://${prefix}${a.hosts[0]}/`)).toBeNull();
        fc.pre(!ASSISTANTS.some((x) => x.hosts.some((h) => suffix === h || suffix.endsWith(`.${h}`))));
        expect(assistantOfReferrer(`https://${a.hosts[0]}.${suffix}/`)).toBeNull();
      }),
    );
  });

  it("the landing page is its host without www. and port, and its path without query or fragment", () => {
    fc.assert(
      fc.property(fc.domain(), fc.boolean(), fc.option(fc.integer({ min: 1, max: 65535 })), fc.array(segment, { maxLength: 5 }), fc.webQueryParameters(), fc.webFragments(), (domain, www, port, path, query, fragment) => {
        const url = `https://${www ? "www." : ""}${domain}${port ? `:${port}` : ""}/${path.join("/")}?${query}&utm_source=chatgpt.com#${fragment}`;
        const visit = classifyVisit({ url, referrer: "" });
        expect(visit).not.toBeNull();
        expect(visit!.domain).toBe(new URL(`https://${domain}`).hostname.replace(/^www\./, ""));
        expect(visit!.path).toBe(new URL(url).pathname);
        expect(visit!.path).not.toMatch(/[?#]/);
      }),
    );
  });
});
