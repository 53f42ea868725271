import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TrackedEntity } from "@/lib/analysis/analyze";
import { brandCandidates, candidateKey, MAX_CANDIDATES_PER_ANSWER, withoutMarkup } from "./brand-candidates";

const crm: TrackedEntity[] = [
  { name: "Lumen CRM", aliases: ["Lumen", "LumenCRM", "Люмен"], domains: ["lumencrm.com"] },
  { name: "HubSpot", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
  { name: "Salesforce", aliases: ["Salesforce Sales Cloud", "SFDC"] },
  { name: "Pipedrive" },
];

describe("brandCandidates on realistic answers", () => {
  it("ChatGPT: a numbered list of bold names, with attribute sub-items, a link and an aside", () => {
    const answer = [
      "For a 10-person startup, these CRMs are the ones most often recommended:",
      "",
      "### 1. HubSpot CRM",
      "- **Pricing:** free plan, paid tiers from $20/seat",
      "- **Best for:** teams that want marketing and sales in one place",
      "",
      "1. **Attio**: a flexible, data-driven CRM that startups love.",
      "   - **Pros:** fast, modern interface",
      "   - **Cons:** fewer integrations",
      "   - **Ease of use:** excellent",
      "2. **Folk CRM** — lightweight and great for relationship-driven sales.",
      "3. [Close](https://close.com): built for inside sales with calling and email.",
      "4. **Pipedrive's** pipeline view is still the simplest.",
      "5. **Zoho CRM** (free plan): cheap and broad.",
      "",
      "## Conclusion",
      "**Verdict:** start with HubSpot's free tier or Attio if you want flexibility.",
    ].join("\n");
    expect(brandCandidates(answer, crm)).toEqual(["Attio", "Folk CRM", "Close", "Zoho CRM"]);
  });

  it("Perplexity: plain 'Name: text' bullets with citation markers, under generic headings", () => {
    const answer = [
      "The best CRMs with a free plan in 2026 are HubSpot, Zoho and Freshsales [1][2].",
      "",
      "## Top picks",
      "* Zoho CRM: generous free tier for up to 3 users [1].",
      "* Freshsales (Freshworks): built-in phone and email [2].",
      "* Salesforce Sales Cloud: powerful but pricey [3].",
      "* Price: from $0 to $25 per user [4].",
      "* Option 2: a spreadsheet, if you only have a handful of deals.",
      "",
      "## Summary",
      "Most small teams start on a free plan and upgrade once the pipeline grows.",
    ].join("\n");
    expect(brandCandidates(answer, crm)).toEqual(["Zoho CRM", "Freshsales"]);
  });

  it("Gemini: bold first cells of a table; a feature table's rows name nothing", () => {
    const answer = [
      "Here's an overview of the leading options:",
      "",
      "| Tool | Best for | Notes |",
      "| --- | --- | --- |",
      "| **Attio** | startups | Flexible data model |",
      "| **HubSpot** | growing companies | Free tier |",
      "| Copper | Google Workspace users | Lives in Gmail |",
      "",
      "| Feature | Attio | Copper |",
      "|---|---|---|",
      "| **Email Sync** | Yes | Yes |",
      "| **Mobile App** | Yes | No |",
    ].join("\n");
    expect(brandCandidates(answer, crm)).toEqual(["Attio", "Copper"]);
  });

  it("Russian: inflected tracked names are tracked, Russian labels are not names", () => {
    const answer = [
      "Вот варианты, которые чаще всего рекомендуют небольшим отделам продаж:",
      "",
      "1. **Люмена** — опечатка модели, но это всё равно Люмен.",
      "2. **Битрикс24**: бесплатный тариф и задачи в одном месте.",
      "3. **amoCRM** — удобная воронка и интеграция с мессенджерами.",
      "   - **Плюсы:** простая настройка",
      "   - **Минусы:** платные интеграции",
      "4. **Мегаплан** (есть пробный период): для управления проектами.",
      "",
      "### Итог",
      "**Кому подходит:** небольшим командам.",
      "- **Плюсы и минусы**: см. выше",
    ].join("\n");
    expect(brandCandidates(answer, crm, "ru")).toEqual(["Битрикс24", "amoCRM", "Мегаплан"]);
  });

  it("German: headings with names, German labels dropped, genitive of a tracked name dropped", () => {
    const answer = [
      "Hier ein Überblick über die führenden Optionen für ein kleines Vertriebsteam:",
      "",
      "### Pipedrives Stärken",
      "### CentralStationCRM",
      "Ein deutscher Anbieter, DSGVO-konform.",
      "### weclapp – ERP und CRM",
      "- **Vorteile:** Server in Deutschland",
      "- **Nachteile:** weniger Integrationen",
      "### Fazit",
      "Die besten Optionen sind CentralStationCRM und Pipedrive.",
    ].join("\n");
    expect(brandCandidates(answer, crm, "de")).toEqual(["CentralStationCRM"]);
  });

  it("drops sentences, URLs, numbers and prose, and keeps the first spelling once", () => {
    const answer = [
      "- **This is a very long label that is really a sentence**: no",
      "- **https://attio.com**: a URL",
      "- **2026**: a year",
      "- **$49 USD**: a price",
      "- **Attio**: first",
      "- **ATTIO**: again, another spelling",
      "- Integrates with Gmail and Outlook out of the box.",
      "Many teams also like Streak, which lives inside Gmail.",
    ].join("\n");
    expect(brandCandidates(answer, crm)).toEqual(["Attio"]);
  });

  it("ignores code blocks and quotes the list inside a block quote", () => {
    const answer = ["```", "- **Attio**: inside code", "```", "> 1. **Folk**: quoted list"].join("\n");
    expect(brandCandidates(answer, crm)).toEqual(["Folk"]);
  });

  it("returns nothing for an answer with no structure or only tracked names", () => {
    expect(brandCandidates("HubSpot and Attio are both fine.", crm)).toEqual([]);
    expect(brandCandidates("1. **HubSpot**: yes\n2. **SFDC**: also\n3. **Lumen**: ours", crm)).toEqual([]);
  });
});

describe("candidateKey", () => {
  it("folds case, accents and spacing", () => {
    expect(candidateKey("  Folk   CRM ")).toBe("folk crm");
    expect(candidateKey("Société Générale")).toBe(candidateKey("societe generale"));
  });
});

// Strings that look like answers: list items, headings and table rows made of name-ish words,
// tracked names, labels and markdown, plus arbitrary text.
const word = fc.oneof(
  fc.constantFrom("Attio", "Folk", "Close", "Zoho CRM", "HubSpot", "hubspot", "Lumen", "Люмена", "Pros", "Pricing", "Итог", "Fazit", "Option 2", "123", "https://x.io"),
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^[A-ZА-Я][a-zа-я]{1,8}$/),
);
const line = fc.tuple(fc.constantFrom("- ", "1. ", "* ", "### ", "| ", "", "   - ", "> 2) "), fc.constantFrom("", "**", "*", "["), word, fc.constantFrom("", "**", "*", "](https://a.b)"), fc.constantFrom(": text", " — text", "", " | x |", " (free)", " is fine.")).map((parts) => parts.join(""));
const answers = fc.oneof(fc.array(line, { maxLength: 30 }).map((lines) => lines.join("\n")), fc.string({ maxLength: 400 }), fc.string({ unit: "binary", maxLength: 200 }));
const trackedKeys = crm.flatMap((t) => [t.name, ...(t.aliases ?? [])]).map(candidateKey);

describe("brandCandidates properties", () => {
  it("never throws, returns bounded, distinct text of the answer, never a tracked name", () => {
    fc.assert(
      fc.property(answers, (answer) => {
        const names = brandCandidates(answer, crm);
        expect(names.length).toBeLessThanOrEqual(MAX_CANDIDATES_PER_ANSWER);
        expect(new Set(names.map(candidateKey)).size).toBe(names.length);
        for (const name of names) {
          expect(withoutMarkup(answer)).toContain(withoutMarkup(name));
          expect(trackedKeys).not.toContain(candidateKey(name));
          expect(name.split(" ").length).toBeLessThanOrEqual(5);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is idempotent on duplicates: an answer repeated gives the same candidates", () => {
    // (An unclosed code fence would turn the repeat's code into text, and its text into code.)
    fc.assert(
      fc.property(answers.filter((a) => !/```|~~~/.test(a)), (answer) => {
        expect(brandCandidates(`${answer}\n\n${answer}`, crm)).toEqual(brandCandidates(answer, crm));
      }),
      { numRuns: 300 },
    );
  });

  it("stays bounded on an answer that lists hundreds of names", () => {
    const answer = Array.from({ length: 500 }, (_, i) => `- **Product${i}**: text`).join("\n");
    expect(brandCandidates(answer, crm)).toHaveLength(MAX_CANDIDATES_PER_ANSWER);
  });
});

describe("brandCandidates on hostile input", () => {
  it("stays fast on text built to make line readers backtrack", () => {
    const n = 200_000;
    const hostile = [
      `# ${"# ".repeat(n / 2)}x`,
      `- **${"(a)".repeat(n / 3)}**: x`,
      ">".repeat(n),
      `- [${"[".repeat(n)}](`,
      `- ${"a:".repeat(n / 2)}`,
      `| Tool | x |\n| --- | --- |\n${"| **Attio** | x |\n".repeat(n / 17)}`,
      Array.from({ length: n / 20 }, (_, i) => `${" ".repeat(i % 50)}- **Name${i}**: x`).join("\n"),
    ];
    // CPU time, not wall time: a loaded machine must not make linear work look slow.
    const before = process.cpuUsage();
    for (const text of hostile) brandCandidates(text, crm);
    const used = process.cpuUsage(before);
    // Linear work is a few milliseconds each; a quadratic pass over 200,000 characters takes minutes.
    expect((used.user + used.system) / 1000).toBeLessThan(3000);
  });
});
