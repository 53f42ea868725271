// The captures export as a spreadsheet user opens it: GET /api/exports/captures through the route
// handler (session, workspace, validation for real; only next/headers is simulated) over answers
// written by hand: a German and a Russian prompt in their markets, competitors named at known
// positions, cited and only-retrieved sources, a prompt that reads as a formula, a long answer.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { parseCsv } from "../support/csv-parse";
import { signUp, type Person } from "../support/workspace-fixtures";
import { GET as exportRoute } from "@/app/api/exports/captures/route";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const GERMAN = { text: "Welches CRM für ein kleines Team in München? Größe, Preis & „Datenschutz“", tags: ["kmu", "preise"], country: "DE", language: "de" };
const RUSSIAN = { text: "Какая CRM лучше для малого бизнеса?", tags: ["smb"], country: "RU", language: "ru" };
const FORMULA = { text: "=HYPERLINK(\"http://evil.example\",\"best CRM\")", tags: [] as string[], country: null, language: null };
const GERMAN_ANSWER = 'Für kleine Teams: HubSpot ist „gut“, Lumen auch, Pipedrive "günstig",\nzweite Zeile: Größe zählt.';
const RUSSIAN_ANSWER = "Лучше всего — Pipedrive; «Лумен» не упоминается.";
const LONG_ANSWER = `Lumen ${"lorem ipsum ".repeat(2_000)}`; // 24,006 characters: whole in the full export

const SUMMARY_HEADER = "capture_id,finished_at,prompt,prompt_tags,market,asked_market,provider,model,sample,brand_mentioned,position,sentiment,competitors,cited_domains,cost_usd";
const FULL_HEADER = `${SUMMARY_HEADER},cited_urls,answer`;

let owner: Person;
let ids: { german: string; russian: string; formula: string };

type Cite = { url: string; domain: string; retrievedOnly?: boolean };

beforeAll(async () => {
  owner = await signUp({ name: "Export Owner", workspaceName: "Export" });
  const workspaceId = owner.workspaceId;
  const brand = await db().brand.create({
    data: { workspaceId, name: "Lumen", domains: ["lumen.example"], competitors: { create: [{ workspaceId, name: "HubSpot" }, { workspaceId, name: "Pipedrive" }] } },
    include: { competitors: true },
  });
  const competitor = (name: string) => brand.competitors.find((c) => c.name === name)!.id;
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = await db().providerConfig.create({ data: { workspaceId, name: "Export GPT", connectionId: simulator.id, model: "gpt-test" } });
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: 3, status: "completed" } });

  async function capture(
    sample: number,
    at: string,
    prompt: typeof GERMAN | typeof FORMULA,
    answer: string,
    mentions: { brand: number | null; HubSpot: number | null; Pipedrive: number | null },
    cites: Cite[] = [],
  ): Promise<string> {
    const { id: promptId } = await db().prompt.create({ data: { workspaceId, ...prompt } });
    const row = await db().capture.create({
      data: {
        workspaceId, checkId: check.id, brandId: brand.id, promptId, providerConfigId: provider.id, connectionId: simulator.id,
        sample, status: "succeeded", maxAttempts: 3, attemptCount: 1, model: "gpt-test", searchMode: "auto",
        answerText: answer, costMicros: 1_500, finishedAt: new Date(at), analyzedAt: new Date(at),
      },
    });
    const mention = (kind: "brand" | "competitor", name: string, position: number | null) => ({
      workspaceId, captureId: row.id, kind, name, mentioned: position !== null, count: position === null ? 0 : 1, position,
      sentiment: position === null ? null : ("neutral" as const),
      brandId: kind === "brand" ? brand.id : null, competitorId: kind === "competitor" ? competitor(name) : null,
    });
    await db().mention.createMany({
      data: [mention("brand", "Lumen", mentions.brand), mention("competitor", "HubSpot", mentions.HubSpot), mention("competitor", "Pipedrive", mentions.Pipedrive)],
    });
    await db().citation.createMany({
      data: cites.map((c, i) => ({ workspaceId, captureId: row.id, url: c.url, domain: c.domain, citedInText: !c.retrievedOnly, isOwnDomain: c.domain === "lumen.example", position: i + 1 })),
    });
    return row.id;
  }

  ids = {
    german: await capture(1, "2025-03-02T10:00:00Z", GERMAN, GERMAN_ANSWER, { brand: 2, HubSpot: 1, Pipedrive: 3 }, [
      { url: "https://www.g2.com/de/crm", domain: "g2.com" },
      { url: "https://lumen.example/preise", domain: "lumen.example" },
      { url: "https://retrieved.example/", domain: "retrieved.example", retrievedOnly: true },
      { url: "https://www.g2.com/de/crm", domain: "g2.com" },
      { url: "https://g2.com/vergleich", domain: "g2.com" },
    ]),
    russian: await capture(2, "2025-03-03T10:00:00Z", RUSSIAN, RUSSIAN_ANSWER, { brand: null, HubSpot: null, Pipedrive: 1 }),
    formula: await capture(3, "2025-03-04T10:00:00Z", FORMULA, LONG_ANSWER, { brand: 1, HubSpot: null, Pipedrive: null }),
  };
});

const RANGE = "from=2025-03-01&to=2025-03-10";
const getExport = (query: string) => owner.browser.run(() => exportRoute(new Request(`http://localhost:3000/api/exports/captures?${query}`)));

/** The response's bytes, and its records read the strict RFC 4180 way, each as { column: value }. */
async function csvOf(query: string): Promise<{ response: Response; bytes: Uint8Array; header: string[]; rows: Record<string, string>[] }> {
  const response = await getExport(query);
  expect(response.status).toBe(200);
  // Read the bytes: Response.text() would drop a byte-order mark, the very thing under test.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const [header, ...records] = parseCsv(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
  return { response, bytes, header: header!, rows: records.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i]!]))) };
}

describe("captures export", () => {
  it("starts every CSV with the UTF-8 byte-order mark, so Excel reads German and Russian as written", async () => {
    for (const variant of ["summary", "full"]) {
      const { bytes, rows } = await csvOf(`format=csv&variant=${variant}&${RANGE}`);
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      // The text after the mark is UTF-8 and reads back unchanged (the decoder throws on anything else).
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      expect(rows.map((r) => r.prompt)).toEqual([GERMAN.text, RUSSIAN.text, `'${FORMULA.text}`]);
    }
  });

  it("writes a summary with one row per answer: competitors with positions, cited domains, tags, market; no answer text", async () => {
    const { response, bytes, header, rows } = await csvOf(`format=csv&variant=summary&${RANGE}`);
    expect(response.headers.get("content-disposition")).toContain('filename="beacon-captures-lumen-2025-03-01-to-2025-03-10-summary.csv"');
    expect(header.join(",")).toBe(SUMMARY_HEADER);
    expect(rows).toEqual([
      {
        capture_id: ids.german, finished_at: "2025-03-02T10:00:00.000Z", prompt: GERMAN.text, prompt_tags: "kmu; preise", market: "Germany · German", asked_market: "Germany · German",
        provider: "Export GPT", model: "gpt-test", sample: "1", brand_mentioned: "true", position: "2", sentiment: "neutral",
        // Only sources the answer cites, each domain once, in the order first cited.
        competitors: "HubSpot #1; Pipedrive #3", cited_domains: "g2.com; lumen.example", cost_usd: "0.001500",
      },
      {
        capture_id: ids.russian, finished_at: "2025-03-03T10:00:00.000Z", prompt: RUSSIAN.text, prompt_tags: "smb", market: "Russia · Russian", asked_market: "Russia · Russian",
        provider: "Export GPT", model: "gpt-test", sample: "2", brand_mentioned: "false", position: "", sentiment: "",
        competitors: "Pipedrive #1", cited_domains: "", cost_usd: "0.001500",
      },
      {
        // A prompt that a spreadsheet would run as a formula is defused with an apostrophe.
        capture_id: ids.formula, finished_at: "2025-03-04T10:00:00.000Z", prompt: `'${FORMULA.text}`, prompt_tags: "", market: "", asked_market: "",
        provider: "Export GPT", model: "gpt-test", sample: "3", brand_mentioned: "true", position: "1", sentiment: "neutral",
        competitors: "", cited_domains: "", cost_usd: "0.001500",
      },
    ]);
    const text = new TextDecoder().decode(bytes);
    for (const answer of [GERMAN_ANSWER, RUSSIAN_ANSWER, "lorem ipsum"]) expect(text).not.toContain(answer.slice(0, 20));
    expect(bytes.length).toBeLessThan(1_000);
  });

  it("writes the full CSV with the summary's columns, the cited pages and whole answers, quotes and line breaks intact", async () => {
    const { response, header, rows } = await csvOf(`format=csv&variant=full&${RANGE}`);
    expect(response.headers.get("content-disposition")).toContain('filename="beacon-captures-lumen-2025-03-01-to-2025-03-10.csv"');
    expect(header.join(",")).toBe(FULL_HEADER);
    expect(rows.map((r) => r.answer)).toEqual([GERMAN_ANSWER, RUSSIAN_ANSWER, LONG_ANSWER]);
    expect(rows[0]).toMatchObject({ competitors: "HubSpot #1; Pipedrive #3", cited_domains: "g2.com; lumen.example", cited_urls: "https://www.g2.com/de/crm; https://lumen.example/preise; https://g2.com/vergleich" });
    // The default variant is the full one (what the export served before there were two).
    expect((await csvOf(`format=csv&${RANGE}`)).rows).toEqual(rows);
  });

  it("gives JSON the same new fields, the market as its key", async () => {
    const summary = (await (await getExport(`format=json&variant=summary&${RANGE}`)).json()) as Record<string, unknown>[];
    expect(summary[0]).toEqual({
      id: ids.german, finishedAt: "2025-03-02T10:00:00.000Z", prompt: GERMAN.text, tags: ["kmu", "preise"], market: "DE:de", askedMarket: "DE:de", provider: "Export GPT",
      model: "gpt-test", sample: 1, brandMentioned: true, position: 2, sentiment: "neutral",
      competitors: [{ name: "HubSpot", position: 1 }, { name: "Pipedrive", position: 3 }], citedDomains: ["g2.com", "lumen.example"], costMicros: 1_500,
    });
    expect(summary[2]).toMatchObject({ prompt: FORMULA.text, market: null, askedMarket: null, tags: [], competitors: [], citedDomains: [] });
    const full = (await (await getExport(`format=json&variant=full&${RANGE}`)).json()) as Record<string, unknown>[];
    expect(full[1]).toMatchObject({ answer: RUSSIAN_ANSWER, citedUrls: [], market: "RU:ru" });
  });

  it.each([
    ["a variant it does not know", "format=csv&variant=brief"],
    ["a variant given twice", "format=csv&variant=summary&variant=full"],
  ])("refuses %s with a 400 on the field", async (_, query) => {
    const response = await getExport(query);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "validation_error", field: "variant" });
  });

  // Last: it moves a prompt to another market.
  it("after a prompt's market is edited, files and labels its answers by its market now (as its tags and the dashboards), and says where they were asked", async () => {
    const capture = await db().capture.findUniqueOrThrow({ where: { id: ids.german }, select: { promptId: true } });
    await db().prompt.update({ where: { id: capture.promptId }, data: { country: "AT" } });
    const austria = await csvOf(`format=csv&variant=summary&${RANGE}&markets=AT:de`);
    expect(austria.rows.map((r) => [r.capture_id, r.market, r.asked_market])).toEqual([[ids.german, "Austria · German", "Germany · German"]]);
    expect((await csvOf(`format=csv&variant=summary&${RANGE}&markets=DE:de`)).rows).toEqual([]);
    const json = (await (await getExport(`format=json&variant=summary&${RANGE}&markets=AT:de`)).json()) as Record<string, unknown>[];
    expect(json.map((r) => [r.market, r.askedMarket])).toEqual([["AT:de", "DE:de"]]);
  });
});
