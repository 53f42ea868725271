// The AI assistants whose answers send people to a site, as data: the host a visitor's browser
// reports as the referrer when they click a link in an answer, and the utm_source values the
// assistant (or the site owner's own links) put on such links. Sources: the assistants' own
// web addresses and their documented link tagging (ChatGPT adds utm_source=chatgpt.com to the
// links in its answers). To add one: an entry here and a row in visit-source.test.ts.
//
// hosts: the referrer's host is one of them or a subdomain of one (www.perplexity.ai).
// utm: utm_source values, compared case-insensitively, besides the hosts themselves.

export const ASSISTANT_LIST_SOURCE = "the assistants' own web addresses and link tagging (checked by hand)";
export const ASSISTANT_LIST_DATE = "2026-12-09";

export type Assistant = {
  /** Stored with each visit. */
  name: string;
  operator: string;
  hosts: readonly string[];
  utm: readonly string[];
};

export const ASSISTANTS: readonly Assistant[] = [
  { name: "ChatGPT", operator: "OpenAI", hosts: ["chatgpt.com", "chat.openai.com"], utm: ["chatgpt", "openai"] },
  { name: "Perplexity", operator: "Perplexity", hosts: ["perplexity.ai"], utm: ["perplexity"] },
  { name: "Gemini", operator: "Google", hosts: ["gemini.google.com", "bard.google.com"], utm: ["gemini", "bard"] },
  { name: "NotebookLM", operator: "Google", hosts: ["notebooklm.google.com"], utm: ["notebooklm"] },
  { name: "Copilot", operator: "Microsoft", hosts: ["copilot.microsoft.com", "copilot.cloud.microsoft"], utm: ["copilot"] },
  { name: "Claude", operator: "Anthropic", hosts: ["claude.ai"], utm: ["claude"] },
  { name: "Alice", operator: "Yandex", hosts: ["alice.yandex.ru"], utm: ["alice", "yandex-alice"] },
  { name: "GigaChat", operator: "Sber", hosts: ["giga.chat"], utm: ["gigachat"] },
  { name: "DeepSeek", operator: "DeepSeek", hosts: ["chat.deepseek.com"], utm: ["deepseek"] },
  { name: "Grok", operator: "xAI", hosts: ["grok.com"], utm: ["grok"] },
  { name: "Meta AI", operator: "Meta", hosts: ["meta.ai"], utm: ["meta-ai", "metaai"] },
  { name: "Le Chat", operator: "Mistral AI", hosts: ["chat.mistral.ai"], utm: ["mistral", "lechat"] },
  { name: "Qwen", operator: "Alibaba", hosts: ["chat.qwen.ai"], utm: ["qwen"] },
  { name: "Kimi", operator: "Moonshot AI", hosts: ["kimi.com", "kimi.moonshot.cn"], utm: ["kimi"] },
  { name: "You.com", operator: "You.com", hosts: ["you.com"], utm: ["you.com"] },
  { name: "Phind", operator: "Phind", hosts: ["phind.com"], utm: ["phind"] },
  { name: "Poe", operator: "Quora", hosts: ["poe.com"], utm: ["poe"] },
];
