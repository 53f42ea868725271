// The dashboards over the demo workspace's 90 days of simulated history (the demo seed): the
// Overview draws its charts, the date range and the provider filter change what it shows (and
// the address), the captures export and a chart's CSV download, and Sources and Costs render.
// The Overview's first charts come in one streamed request from the page's head, later ones one GET each (server actions would run one at a time).
import fs from "node:fs";
import type { Download, Page, Request } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CONTENT_MARK } from "@/lib/browser/content-mark";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";
import { BATCH_PARAM, BATCH_PATH } from "@/lib/analytics/batch";
import { BATCH_TAKEN_MARK } from "@/lib/browser/chart-batch";

setupBrowser();

/** Waits until no chart or tile of the page is loading or refetching. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"][aria-label="Loading"]'), null, { timeout: 30_000 });
}

/** The text of a headline tile, e.g. "VISIBILITY 77% n = 1,392 answers …". */
const tile = (page: Page, label: string) => page.getByRole("group", { name: label, exact: true });

/** "n = 1,392 answers" of the Visibility tile, as a number. */
async function visibilitySample(page: Page): Promise<number> {
  const text = await tile(page, "Visibility").innerText();
  const match = /n = ([\d,]+) answers?/.exec(text);
  expect(match, `sample size in "${text}"`).not.toBeNull();
  return Number(match![1]!.replaceAll(",", ""));
}

/** Waits until the Visibility tile's sample size is no longer `before` and returns the new one. */
async function sampleChangedFrom(page: Page, before: number): Promise<number> {
  await page.waitForFunction(
    (old) => {
      const text = document.querySelector('[role="group"][aria-label="Visibility"]')?.textContent ?? "";
      const match = /n = ([\d,]+) answer/.exec(text);
      return !!match && Number(match[1]!.replaceAll(",", "")) !== old && !document.querySelector('main [aria-busy="true"]');
    },
    before,
    { timeout: 30_000 },
  );
  return visibilitySample(page);
}

async function downloaded(download: Download): Promise<string> {
  const file = await download.path();
  return fs.readFileSync(file, "utf8");
}

const chart = (page: Page, title: string) => page.getByRole("region", { name: title });

/**
 * A chart card scrolled into view, once every chart in it has drawn: charts draw as they come
 * near the viewport (components/charts/responsive-chart.tsx), as when a reader scrolls to them.
 */
async function drawnChart(page: Page, title: string) {
  const card = chart(page, title);
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => card.locator('[data-chart="waiting"]').count()).toBe(0);
  return card;
}

/**
 * The chart requests (GET /api/analytics/<chart>) in the order the browser started them and got
 * their answers, from now on.
 */
function chartRequests(page: Page): { kind: "start" | "end"; chart: string }[] {
  const events: { kind: "start" | "end"; chart: string }[] = [];
  const record = (kind: "start" | "end") => (request: Request) => {
    const chart = /^\/api\/analytics\/([^/]+)$/.exec(new URL(request.url()).pathname)?.[1];
    if (chart) events.push({ kind, chart });
  };
  page.on("request", record("start"));
  page.on("requestfinished", record("end"));
  page.on("requestfailed", record("end"));
  return events;
}

async function openOverview(page: Page): Promise<void> {
  await login(page, DEMO_USER.email, DEMO_USER.password);
  // The demo seed writes 90 days of simulated history; without it the Overview would show the
  // getting-started checklist instead of charts, and every assertion below would be meaningless.
  await page.getByRole("group", { name: "Visibility", exact: true }).waitFor({ timeout: 30_000 });
  await settled(page);
}

describe("dashboards", () => {
  test("the Overview draws every chart from the demo history", async () => {
    const page = await newPage();
    const requests = chartRequests(page);
    await openOverview(page);

    // All six charts (the demo's prompts span four markets, so the market table shows) and the
    // filter's provider coverage were asked for before the first answer came back: none waited for another.
    const firstAnswer = requests.findIndex((e) => e.kind === "end");
    expect(firstAnswer, JSON.stringify(requests)).toBeGreaterThan(0);
    const inFlightTogether = requests.slice(0, firstAnswer).map((e) => e.chart).sort();
    expect(inFlightTogether, JSON.stringify(requests)).toEqual(["kpis", "markets", "positions", "prompts", "provider-coverage", "share-of-voice", "visibility"]);

    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Demo workspace");
    expect(await visibilitySample(page)).toBeGreaterThan(100);
    expect(await tile(page, "Visibility").innerText()).toMatch(/\d+%[\s\S]*95% CI \d+–\d+%/);
    expect(await tile(page, "Share of voice").innerText()).toMatch(/\d+%/);
    expect(await tile(page, "Average position").innerText()).toMatch(/\d\.\d\d/);
    expect(await tile(page, "Sentiment").innerText()).toMatch(/\d+% positive/);

    // One line per provider plus "All providers"; a line and its 95 % band per tracked entity, in a
    // bucket the data chose; six position bars.
    expect(await chart(page, "Visibility over time").locator(".recharts-line").count()).toBe(5);
    // The legend is a list under the plot, in the order the lines are drawn ("All providers" last).
    const legend = await chart(page, "Visibility over time").getByRole("list", { name: "Legend" }).getByRole("listitem").allInnerTexts();
    expect([...legend].sort()).toEqual(["All providers", "ChatGPT", "Claude", "Gemini", "Perplexity"]);
    expect(legend.at(-1)).toBe("All providers");
    const shareOfVoice = await drawnChart(page, "Share of voice");
    expect(await shareOfVoice.locator(".recharts-area").count()).toBe(4);
    expect(await shareOfVoice.locator(".recharts-line").count()).toBe(4);
    expect(await chart(page, "Share of voice").innerText()).toMatch(/Points are (days|weeks|months)/);
    const periodShares = page.getByRole("list", { name: "Share of voice over the period" });
    expect(await periodShares.locator("li").count()).toBe(4);
    for (const text of await periodShares.locator("li").allInnerTexts()) expect(text).toMatch(/\d+%[\s\S]*\d+–\d+%[\s\S]*vs previous period · (beyond noise|within noise|too few answers)/);
    expect(await chart(page, "Share of voice").getByRole("list", { name: "Legend" }).innerText()).toMatch(/^Lumen CRM/);
    expect(await (await drawnChart(page, "Position distribution")).locator(".recharts-bar-rectangle").count()).toBeGreaterThanOrEqual(5);
    expect(await chart(page, "Prompts").locator("tbody tr").count()).toBe(12);
    // The markets: prompts without a market, Germany in English and in German, Russia in Russian.
    const markets = await chart(page, "Markets").locator("tbody th").allTextContents();
    expect(markets.sort()).toEqual(["Germany · English", "Germany · German", "Prompts without a market", "Russia · Russian"]);
  });

  test("a chart below the fold draws when scrolled to; the first screen does not wait for it", async () => {
    // A short window: the second row of charts (share of voice, positions) is well below it.
    const page = await newPage({ viewport: { width: 1280, height: 600 } });
    await openOverview(page);
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CONTENT_MARK, { timeout: 30_000 });
    const positions = chart(page, "Position distribution");
    // Its data came with the page (the sample size shows, the card is not busy); only the drawing waits.
    expect(await positions.locator("[data-sample]").innerText()).toMatch(/n = [\d,]+/);
    expect(await positions.locator('[data-chart="waiting"]').count()).toBe(1);
    expect(await positions.locator(".recharts-bar-rectangle").count()).toBe(0);
    // The chart in view drew before the content mark.
    expect(await chart(page, "Visibility over time").locator('[data-chart="drawn"] .recharts-line').count()).toBe(5);

    await positions.scrollIntoViewIfNeeded();
    await positions.locator(".recharts-bar-rectangle").first().waitFor();
    expect(await positions.locator(".recharts-bar-rectangle").count()).toBeGreaterThanOrEqual(5);
    // Once drawn, a chart stays drawn when scrolled away.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await positions.locator('[data-chart="drawn"]').count()).toBe(1);
  });

  test("each dashboard's first charts come in one request from its page's head, and every chart takes its answer", async () => {
    const page = await newPage();
    await openOverview(page);
    for (const path of ["/", "/analytics/sources", "/analytics/costs", "/traffic", "/?range=7&providers=none-such"]) {
      await page.goto(path);
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CONTENT_MARK, { timeout: 30_000 });
      await settled(page);
      const { requests, preloads, taken } = await page.evaluate((takenMark) => ({
        requests: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
          .filter((r) => new URL(r.name).pathname.startsWith("/api/analytics/"))
          .map((r) => ({ url: r.name, initiator: r.initiatorType, compressed: r.encodedBodySize < r.decodedBodySize })),
        preloads: [...document.querySelectorAll<HTMLLinkElement>('head link[rel="preload"][as="fetch"]')].map((l) => l.href),
        taken: performance.getEntriesByName(takenMark).map((m) => (m as PerformanceMark).detail as string),
      }), BATCH_TAKEN_MARK);
      // One request, the batch, asked by its preload (initiator "link"); a chart whose address it
      // did not hold would show as a fetch of its own.
      expect(requests, path).toHaveLength(1);
      expect(requests[0]!.initiator, path).toBe("link");
      expect(new URL(requests[0]!.url).pathname, path).toBe(BATCH_PATH);
      expect(preloads, path).toEqual([requests[0]!.url]);
      // Compressed on the way, like the single GETs (Next.js compresses text types, line by line).
      expect(requests[0]!.compressed, path).toBe(true);
      // Every chart it holds was taken by a chart of the page, once: none was asked for in vain.
      const held = new URL(requests[0]!.url).searchParams.getAll(BATCH_PARAM);
      expect(held.length, path).toBeGreaterThanOrEqual(2);
      expect([...taken].sort(), path).toEqual([...held].sort());
    }
    // A client-side navigation preloads nothing: the query cache may hold answers already (the
    // filter bar's coverage), which a preload would ask for again, unused.
    const warnings: string[] = [];
    page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sources" }).click();
    await page.waitForURL((url) => url.pathname === "/analytics/sources");
    await tile(page, "Own-domain citation rate").waitFor();
    await settled(page);
    const afterClick = await page.evaluate(() =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.name.includes("/api/analytics/top-domains")).map((r) => r.initiatorType),
    );
    expect(afterClick).toEqual(["fetch"]);
    expect(await page.locator('head link[rel="preload"][as="fetch"][href*="top-domains"]').count()).toBe(0);
    expect(warnings.filter((w) => w.includes("preloaded")), warnings.join("\n")).toEqual([]);
  });

  test("the date range and the provider filter change the numbers and live in the address", async () => {
    const page = await newPage();
    await openOverview(page);
    const thirtyDays = await visibilitySample(page);

    await page.getByRole("button", { name: "7 days" }).click();
    await page.waitForURL((url) => url.searchParams.get("range") === "7");
    const sevenDays = await sampleChangedFrom(page, thirtyDays);
    expect(sevenDays).toBeLessThan(thirtyDays);
    expect(sevenDays).toBeGreaterThan(0);

    await page.getByRole("button", { name: "90 days" }).click();
    await page.waitForURL((url) => url.searchParams.get("range") === "90");
    expect(await sampleChangedFrom(page, sevenDays)).toBeGreaterThan(thirtyDays);

    // One provider of four: fewer answers, one line, and the choice survives a reload.
    const allProviders = await visibilitySample(page);
    await page.locator("summary", { has: page.locator("#analytics-providers-value") }).click();
    await page.getByRole("checkbox", { name: "ChatGPT" }).check();
    await page.waitForURL((url) => !!url.searchParams.get("providers"));
    const chatGptOnly = await sampleChangedFrom(page, allProviders);
    expect(chatGptOnly).toBeLessThan(allProviders);
    expect(chatGptOnly).toBeGreaterThan(allProviders / 8);
    expect(await chart(page, "Visibility over time").locator(".recharts-line").count()).toBe(1);
    await page.reload();
    await tile(page, "Visibility").waitFor();
    await settled(page);
    expect(await visibilitySample(page)).toBe(chatGptOnly);
    expect(await page.locator("#analytics-providers-value").innerText()).toBe("ChatGPT");

    // A custom range without any answers shows the guiding empty state.
    await page.getByRole("button", { name: "Custom" }).click();
    await page.getByLabel("From", { exact: true }).fill("2001-01-01");
    await page.getByLabel("To", { exact: true }).fill("2001-01-31");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => url.searchParams.get("from") === "2001-01-01" && url.searchParams.get("to") === "2001-01-31");
    await sampleChangedFrom(page, chatGptOnly);
    expect(await visibilitySample(page)).toBe(0);
    expect(await chart(page, "Visibility over time").innerText()).toContain("Run a check to see how AI assistants talk about Lumen CRM");
  });

  test("the captures export downloads a CSV of the filtered answers, and a chart downloads its rows", async () => {
    const page = await newPage();
    await openOverview(page);
    const thirtyDays = await visibilitySample(page);
    await page.getByRole("button", { name: "7 days" }).click();
    await page.waitForURL((url) => url.searchParams.get("range") === "7");
    const answers = await sampleChangedFrom(page, thirtyDays);

    const [summary] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Summary CSV", exact: true }).click()]);
    expect(summary.suggestedFilename()).toMatch(/^beacon-captures-lumen-crm-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}-summary\.csv$/);
    // The UTF-8 byte-order mark first, so Excel reads the German and Russian prompts as written.
    const bytes = fs.readFileSync(await summary.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString("utf8").slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toBe("capture_id,finished_at,prompt,prompt_tags,market,asked_market,provider,model,sample,brand_mentioned,position,sentiment,competitors,cited_domains,cost_usd");
    // Every answer in the tiles is one row (the export also holds answers not analysed yet, none here).
    expect(lines.length - 1).toBe(answers);
    expect(lines.some((line) => line.includes("Какую CRM выбрать"))).toBe(true);

    const [full] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Full CSV with answers", exact: true }).click()]);
    const fullText = fs.readFileSync(await full.path());
    expect([...fullText.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(fullText.toString("utf8").slice(1).split("\r\n")[0]).toBe(`${lines[0]},cited_urls,answer`);
    expect(fullText.length).toBeGreaterThan(bytes.length * 2);

    const [chartCsv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download Position distribution as CSV" }).click(),
    ]);
    const rows = (await downloaded(chartCsv)).replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    expect(rows[0]).toBe("position,answers,share,ci95_low,ci95_high");
    expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(["1", "2", "3", "4", "5+", "not mentioned"]);
    expect(rows.slice(1).reduce((sum, r) => sum + Number(r.split(",")[1]), 0)).toBe(answers);
  });

  test("Sources and Costs open from the sidebar and draw their charts", async () => {
    const page = await newPage();
    await openOverview(page);
    const nav = page.getByRole("navigation", { name: "Main" });

    await nav.getByRole("link", { name: "Sources" }).click();
    await page.waitForURL((url) => url.pathname === "/analytics/sources");
    await tile(page, "Own-domain citation rate").waitFor();
    await settled(page);
    expect(await tile(page, "Own-domain citation rate").innerText()).toMatch(/\d+%[\s\S]*of [\d,]+ answers/);
    expect(await (await drawnChart(page, "Top cited domains")).locator(".recharts-bar-rectangle").count()).toBeGreaterThan(0);
    expect(await chart(page, "Cited pages").locator("tbody tr").count()).toBeGreaterThan(0);
    // Where answers come from: one small chart per kind of site (at most six), all on one scale;
    // the demo's answers cite review sites, and the brand's and the competitors' own sites.
    const categories = await drawnChart(page, "Where answers come from");
    const panels = categories.locator("figure");
    expect(await panels.count()).toBeGreaterThan(1);
    expect(await panels.count()).toBeLessThanOrEqual(6);
    expect(await categories.locator("[data-bar]").count()).toBeGreaterThan(0);
    const captions = (await categories.locator("figcaption").allInnerTexts()).join("\n") + (await categories.locator("figcaption [title]").evaluateAll((els) => els.map((e) => e.getAttribute("title")).join("\n")));
    for (const name of ["Own", "Competitor", "Review and comparison sites"]) expect(captions).toContain(name);
    const yMaxes = await panels.evaluateAll((figures) => figures.map((f) => f.querySelector("[data-y-max]")?.textContent));
    expect(yMaxes.every(Boolean) && new Set(yMaxes).size).toBe(1);
    // A panel by keyboard: End shows (and announces) its last bucket's count.
    const panel = panels.first().getByRole("application");
    await panel.focus();
    await page.keyboard.press("End");
    await expect.poll(() => panel.locator('[aria-live="polite"]').innerText()).toMatch(/\d[\s\S]*citations/);
    await page.keyboard.press("Escape");
    await expect.poll(() => panel.locator('[aria-live="polite"]').innerText()).toBe("");
    // Gap sources leave out the brand's and competitors' own sites until the toggle keeps them;
    // every row says what to do there, and links to the pages cited from there.
    const gaps = chart(page, "Gap sources");
    expect(await gaps.locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await gaps.locator("tbody td:nth-child(2)", { hasText: /^Competitor$/ }).count()).toBe(0);
    for (const text of await gaps.locator("tbody tr td:first-child").allInnerTexts()) expect(text).toMatch(/\n.{20,}\.\nPages cited from \S+$/s);
    await gaps.getByRole("checkbox", { name: "Include competitors' and your own sites" }).check();
    await expect.poll(() => gaps.locator("tbody tr", { hasText: "A competitor's own site" }).count()).toBeGreaterThan(0);
    expect(await page.getByRole("region", { name: /pages cited most$/ }).locator("tbody tr").count()).toBeGreaterThan(0);

    // A gap source leads to its pages: Cited pages narrowed to that domain, in the address too.
    const link = gaps.locator("tbody tr").first().getByRole("link", { name: /^Pages cited from / });
    const domain = (await link.innerText()).replace(/^Pages cited from /, "");
    await link.click();
    await page.waitForURL((url) => url.searchParams.get("domain") === domain);
    const cited = chart(page, "Cited pages");
    await cited.getByText(`Only pages on ${domain}`).waitFor();
    await settled(page);
    const domains = await cited.locator("tbody tr td:nth-child(2)").allInnerTexts();
    expect(domains.length).toBeGreaterThan(0);
    for (const d of domains) expect(d.trim().replace(/\s*own$/, "")).toBe(domain);
    await cited.getByRole("button", { name: "Show pages of every domain" }).click();
    await page.waitForURL((url) => !url.searchParams.has("domain"));

    await nav.getByRole("link", { name: "Costs" }).click();
    await page.waitForURL((url) => url.pathname === "/analytics/costs");
    await tile(page, "Spend").waitFor();
    await settled(page);
    expect(await tile(page, "Spend").innerText()).toMatch(/\$\d+\.\d\d[\s\S]*[\d,]+ attempts/);
    expect(await tile(page, "Cost per accepted capture").innerText()).toMatch(/\$\d+\.\d{4}/);
    // The demo's failed attempts were refused before any work: no cost, so no waste, and said so.
    // Other browser tests of the run share the demo workspace and may cancel a running capture
    // first (checks.test.ts), whose estimate is then charged: the tile says that instead.
    const waste = await tile(page, "Retry waste").innerText();
    if (/\$0\.00/.test(waste)) expect(waste).toMatch(/No waste: the [\d,]+ attempts not accepted cost nothing/);
    else expect(waste).toMatch(/\$\d+\.\d\d[\s\S]*[\d,]+ attempts? charged without an accepted answer · [\d.]+% of spend/);
    // No monthly budget: the month's spend, that no limit is set, and where the owner sets one.
    const month = tile(page, "This month");
    expect(await month.innerText()).toMatch(/^This month\s+\$\d+\.\d\d\s+spent in \d{4}-\d\d \(UTC\) · no monthly budget set/i);
    expect(await month.innerText()).not.toContain("/");
    expect(await month.getByRole("link", { name: "Set a monthly budget" }).getAttribute("href")).toBe("/settings?tab=workspace");
    expect(await (await drawnChart(page, "Spend per provider")).locator(".recharts-bar-rectangle").count()).toBeGreaterThan(0);
    expect(await chart(page, "Costs per provider").locator("tbody tr").count()).toBe(4);
  });
});
