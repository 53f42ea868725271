import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulateSetupProposal } from "@/lib/providers/simulator-setup-suggestions";
import { brandNameOf, jsonCandidates, parseProposal, ProposalError } from "./parse-proposal";
import { MAX_COMPETITORS, MAX_QUESTIONS, MIN_QUESTIONS, registrableDomainOf } from "./schemas";

const website = { domain: "acme-crm.com" };
const questions = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Which CRM is best for team size ${i + 2}?`, tag: "discovery" }));
const proposal = {
  brand: { name: "Acme CRM", aliases: ["Acme", "AcmeCRM"], domains: ["https://www.acme-crm.com/", "acme.io"] },
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", aliases: ["Pipe drive"], domains: ["www.pipedrive.com"] },
  ],
  questions: questions(8),
};

describe("parseProposal on realistic answers", () => {
  it("reads JSON in a ```json fence with prose around it (GPT, Claude)", () => {
    const answer = `Here is the research you asked for:\n\n\`\`\`json\n${JSON.stringify(proposal, null, 2)}\n\`\`\`\n\nLet me know if you want more questions.`;
    const parsed = parseProposal(answer, website);
    expect(parsed.brand).toEqual({ name: "Acme CRM", aliases: ["Acme", "AcmeCRM"], domains: ["acme-crm.com", "acme.io"] });
    expect(parsed.competitors).toEqual([
      { name: "HubSpot", aliases: [], domains: ["hubspot.com"] },
      { name: "Pipedrive", aliases: ["Pipe drive"], domains: ["pipedrive.com"] },
    ]);
    expect(parsed.questions).toHaveLength(8);
    expect(parsed.questions[0]).toEqual({ text: "Which CRM is best for team size 2?", tags: ["discovery"] });
  });

  it("reads a bare object with a sentence before it and braces inside strings", () => {
    const withBraces = { ...proposal, questions: [...questions(5), { text: "Is {Acme} worth it?", tag: "brand" }] };
    const parsed = parseProposal(`Sure! ${JSON.stringify(withBraces)} Hope this helps {smile}`, website);
    expect(parsed.questions.map((q) => q.text)).toContain("Is {Acme} worth it?");
  });

  it("drops invalid, duplicate and over-long items, keeps the rest, and caps the lists", () => {
    const messy = {
      brand: { name: "  Acme   CRM ", aliases: ["acme crm", "", 42, "Acme"], domains: ["not a domain", "acme-crm.com"] },
      competitors: [
        { name: "HubSpot", domains: ["hubspot.com"] },
        { name: "hubspot", domains: [] }, // the same name again
        { name: "" },
        "Zoho CRM",
        { name: "acme crm" }, // the brand itself
        ...Array.from({ length: 12 }, (_, i) => ({ name: `Rival ${i}`, domains: [`rival${i}.com`] })),
      ],
      questions: [
        ...questions(40),
        { text: "Which CRM is best for team size 2?", tag: "dupe" },
        { text: "no", tag: "x" },
        { text: "x".repeat(5000) },
        { text: "Which CRM has the best mobile app?", tag: "Bad Tag!!" },
        null,
      ],
    };
    const parsed = parseProposal(JSON.stringify(messy), website);
    expect(parsed.brand).toEqual({ name: "Acme CRM", aliases: ["Acme"], domains: ["acme-crm.com"] });
    expect(parsed.competitors.map((c) => c.name)).toEqual(["HubSpot", "Zoho CRM", "Rival 0", "Rival 1", "Rival 2", "Rival 3", "Rival 4", "Rival 5"]);
    expect(parsed.competitors).toHaveLength(MAX_COMPETITORS);
    expect(parsed.questions).toHaveLength(MAX_QUESTIONS);
    expect(new Set(parsed.questions.map((q) => q.text.toLowerCase())).size).toBe(MAX_QUESTIONS);
  });

  it("keeps a question whose tag is invalid, without the tag", () => {
    const answer = JSON.stringify({ ...proposal, questions: [...questions(5), { text: "Which CRM has the best mobile app?", tag: "Bad Tag!!" }] });
    expect(parseProposal(answer, website).questions.at(-1)).toEqual({ text: "Which CRM has the best mobile app?", tags: [] });
  });

  it("falls back to the website's name and domain when the answer names no brand", () => {
    const parsed = parseProposal(JSON.stringify({ questions: questions(6) }), website);
    expect(parsed.brand).toEqual({ name: "Acme CRM", aliases: [], domains: ["acme-crm.com"] });
    expect(parsed.competitors).toEqual([]);
  });

  it("says clearly when there is no JSON or too few usable questions", () => {
    expect(() => parseProposal("I cannot browse the web, sorry.", website)).toThrow(/no JSON object/);
    expect(() => parseProposal(JSON.stringify({ ...proposal, questions: questions(MIN_QUESTIONS - 1) }), website)).toThrow(
      new RegExp(`had ${MIN_QUESTIONS - 1} usable questions; at least ${MIN_QUESTIONS}`),
    );
    expect(() => parseProposal('{"questions": "many"}', website)).toThrow(ProposalError);
  });
});

describe("parseProposal, properties", () => {
  const anyAnswer = fc.oneof(
    fc.string(),
    fc.json().map((j) => `prefix ${j} suffix`),
    fc.record({ brand: fc.anything(), competitors: fc.anything(), questions: fc.anything() }).map((o) => "```json\n" + JSON.stringify(o) + "\n```"),
  );

  it("never throws anything but a ProposalError, and what it returns obeys the limits", () => {
    fc.assert(
      fc.property(anyAnswer, (answer) => {
        try {
          const parsed = parseProposal(answer, website);
          expect(parsed.questions.length).toBeGreaterThanOrEqual(MIN_QUESTIONS);
          expect(parsed.questions.length).toBeLessThanOrEqual(MAX_QUESTIONS);
          expect(parsed.competitors.length).toBeLessThanOrEqual(MAX_COMPETITORS);
        } catch (error) {
          expect(error).toBeInstanceOf(ProposalError);
        }
      }),
      { numRuns: 300 },
    );
  });

  const questionText = fc.string({ minLength: 3, maxLength: 200 }).filter((s) => /^\S[^\u0000-\u001f\u007f]*\S$/u.test(s) && !/\s{2}/.test(s));
  const entityName = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /^\S([^\u0000-\u001f\u007f]*\S)?$/u.test(s) && !/\s{2}/.test(s));

  it("keeps every distinct valid question and competitor, wherever the JSON sits, without duplicates ignoring case", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(questionText, { minLength: MIN_QUESTIONS, maxLength: 40, selector: (s) => s.toLowerCase() }),
        fc.array(entityName, { maxLength: 12 }),
        fc.constantFrom("", "Here you go:\n", "```json\n", "```\n"),
        (texts, names, wrap) => {
          const body = JSON.stringify({ brand: { name: "Acme CRM" }, competitors: names.map((name) => ({ name })), questions: [...texts, ...texts].map((text) => ({ text })) });
          const answer = wrap.startsWith("```") ? `${wrap}${body}\n\`\`\`` : `${wrap}${body}`;
          const parsed = parseProposal(answer, website);
          expect(parsed.questions.map((q) => q.text)).toEqual(texts.slice(0, MAX_QUESTIONS));
          const firstSpellings = names.filter((n, i) => n.toLowerCase() !== "acme crm" && names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
          expect(parsed.competitors.map((c) => c.name)).toEqual(firstSpellings.slice(0, MAX_COMPETITORS));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("finds the object after any prose that has no braces", () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/[{}`]/.test(s)), (prose) => {
        expect(jsonCandidates(`${prose}${JSON.stringify(proposal)}${prose}`)[0]).toEqual(proposal);
      }),
    );
  });
});

describe("domains and names", () => {
  it("normalises a website to its registrable domain", () => {
    expect(registrableDomainOf("https://www.shop.acme.co.uk/about?x=1")).toBe("acme.co.uk");
    expect(registrableDomainOf("Acme-CRM.com")).toBe("acme-crm.com");
    expect(registrableDomainOf("https://acme.github.io/docs")).toBe("acme.github.io");
    expect(registrableDomainOf("www.capterra.com.de")).toBe("capterra.com.de");
    expect(registrableDomainOf("localhost")).toBeNull();
    expect(registrableDomainOf("not a domain")).toBeNull();
    expect(registrableDomainOf("")).toBeNull();
  });

  it("names a brand after its domain's label", () => {
    expect(brandNameOf("acme-crm.com")).toBe("Acme CRM");
    expect(brandNameOf("lumen.io")).toBe("Lumen");
  });
});

describe("the simulator's proposals", () => {
  it("are deterministic, within the limits, and read back by the parser unchanged", () => {
    for (const language of ["en", "de", "ru"]) {
      const a = simulateSetupProposal({ domain: "acme-crm.com", language, country: "DE" });
      expect(simulateSetupProposal({ domain: "acme-crm.com", language, country: "DE" })).toEqual(a);
      expect(a.questions.length).toBeGreaterThanOrEqual(20);
      expect(a.questions.length).toBeLessThanOrEqual(30);
      expect(a.competitors.length).toBeGreaterThanOrEqual(5);
      const parsed = parseProposal(JSON.stringify(a), { domain: "acme-crm.com" });
      expect(parsed.questions.map((q) => q.text)).toEqual(a.questions.map((q) => q.text));
      expect(parsed.competitors.map((c) => c.name)).toEqual(a.competitors.map((c) => c.name));
    }
  });

  it("write the questions in the language asked, about the category the domain suggests", () => {
    const en = simulateSetupProposal({ domain: "acme-crm.com", language: "en" });
    const de = simulateSetupProposal({ domain: "acme-crm.com", language: "de" });
    const ru = simulateSetupProposal({ domain: "acme-crm.com", language: "ru" });
    expect(en.brand.name).toBe("Acme CRM");
    expect(en.questions[0]!.text).toMatch(/^What is the best CRM/);
    expect(de.questions[0]!.text).toMatch(/^Was ist die beste CRM-Software/);
    expect(ru.questions.every((q) => /\p{Script=Cyrillic}/u.test(q.text))).toBe(true);
    expect(simulateSetupProposal({ domain: "tasklane.io", language: "en" }).questions[0]!.text).toContain("project management tool");
  });
});
