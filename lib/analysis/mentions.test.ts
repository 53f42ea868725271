import { describe, expect, it } from "vitest";
import { analyzeMentions, type Entity } from "./mentions";

const crm: Entity[] = [
  { name: "Lumen CRM", kind: "brand", aliases: ["Lumen", "LumenCRM"] },
  { name: "HubSpot", kind: "competitor", aliases: ["HubSpot CRM"] },
  { name: "Salesforce", kind: "competitor", aliases: ["Salesforce Sales Cloud", "SFDC"] },
  { name: "Pipedrive", kind: "competitor" },
];

const byName = (results: ReturnType<typeof analyzeMentions>) => Object.fromEntries(results.map((r) => [r.name, r]));

describe("analyzeMentions", () => {
  it("reads numbered lists, markdown emphasis and links, and ranks by first mention", () => {
    const answer = [
      "Here are the best options:",
      "",
      "1. **HubSpot**: excellent free plan and great integrations.",
      "2. [Lumen CRM](https://lumencrm.com) is a solid choice for small teams.",
      "3. *Salesforce Sales Cloud* is powerful but expensive and complex.",
      "",
      "Overall HubSpot's free tier is hard to beat.",
    ].join("\n");
    const r = byName(analyzeMentions(answer, crm));
    expect(r["HubSpot"]).toMatchObject({ mentioned: true, count: 2, position: 1, sentiment: "positive" });
    expect(r["Lumen CRM"]).toMatchObject({ mentioned: true, count: 1, position: 2 });
    // "Salesforce Sales Cloud" counts once, not also as "Salesforce".
    expect(r["Salesforce"]).toMatchObject({ mentioned: true, count: 1, position: 3, sentiment: "negative" });
    expect(r["Pipedrive"]).toMatchObject({ mentioned: false, count: 0, position: null, sentiment: null });
  });

  it("reads markdown tables row by row", () => {
    const answer = "| Tool | Notes |\n| --- | --- |\n| Pipedrive | Great for pipelines, loved by sales teams |\n| Lumen | Buggy and slow |";
    const r = byName(analyzeMentions(answer, crm));
    expect(r["Pipedrive"]).toMatchObject({ mentioned: true, position: 1, sentiment: "positive" });
    expect(r["Lumen CRM"]).toMatchObject({ mentioned: true, position: 2, sentiment: "negative" });
  });

  it("matches whole words only, case- and accent-insensitively", () => {
    const entities: Entity[] = [
      { name: "Notion", kind: "brand" },
      { name: "Café Inc", kind: "competitor" },
    ];
    expect(byName(analyzeMentions("That is a notional figure.", entities))["Notion"]!.mentioned).toBe(false);
    expect(byName(analyzeMentions("NOTION works well. We also like cafe inc.", entities))["Notion"]!.count).toBe(1);
    expect(byName(analyzeMentions("We also like cafe inc for this.", entities))["Café Inc"]!.mentioned).toBe(true);
  });

  it("handles names with punctuation and possessives", () => {
    const entities: Entity[] = [
      { name: "Monday.com", kind: "brand" },
      { name: "AT&T", kind: "competitor" },
      { name: "Node.js", kind: "competitor" },
    ];
    const r = byName(analyzeMentions("Monday.com's boards are great. AT&T uses Node.js, and so does Monday.com.", entities));
    expect(r["Monday.com"]!.count).toBe(2);
    expect(r["AT&T"]!.count).toBe(1);
    expect(r["Node.js"]!.count).toBe(1);
    expect(byName(analyzeMentions("xmonday.com and node.jsx are different things", entities))["Monday.com"]!.mentioned).toBe(false);
  });

  it("respects case-sensitive aliases for names that are common words", () => {
    const entities: Entity[] = [{ name: "Close CRM", kind: "brand", caseSensitiveAliases: ["Close"] }];
    expect(byName(analyzeMentions("You should close the deal quickly.", entities))["Close CRM"]!.mentioned).toBe(false);
    expect(byName(analyzeMentions("Close is a sales-focused CRM.", entities))["Close CRM"]!.mentioned).toBe(true);
  });

  it("finds names in non-Latin scripts", () => {
    const entities: Entity[] = [
      { name: "Яндекс", kind: "brand" },
      { name: "飞书", kind: "competitor" },
    ];
    const r = byName(analyzeMentions("Лучший выбор — Яндекс Трекер. 我们推荐飞书。", entities));
    expect(r["Яндекс"]).toMatchObject({ mentioned: true, position: 1 });
    expect(r["飞书"]).toMatchObject({ mentioned: true, position: 2 });
  });

  it("judges each entity by its own clause when a sentence names several", () => {
    const r = byName(analyzeMentions("HubSpot is excellent, but Pipedrive is terrible.", crm));
    expect(r["HubSpot"]!.sentiment).toBe("positive");
    expect(r["Pipedrive"]!.sentiment).toBe("negative");
  });

  it("returns every entity unmentioned for an answer that names none", () => {
    const results = analyzeMentions("It depends on your needs; try a few tools first.", crm);
    expect(results.every((r) => !r.mentioned && r.position === null && r.count === 0)).toBe(true);
  });

  it("ignores code blocks and keeps headings", () => {
    const r = byName(analyzeMentions("## Why Lumen\n\n```\nHubSpot.init()\n```", crm));
    expect(r["Lumen CRM"]!.mentioned).toBe(true);
    expect(r["HubSpot"]!.mentioned).toBe(false);
  });
});
