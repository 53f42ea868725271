// The Traffic page (issue 21 item 4): before any log the demo workspace sees how to import one;
// an access log (CSV) posted to POST /api/v1/traffic/logs with a key made on the Settings page then
// shows on the page: crawler requests with operator and purpose, the page funnel (a crawled page
// the demo's answers cite, and pages never cited), its lists chosen by keyboard, the top crawled
// pages, and the page fits a 390 px phone. Visits reported to POST /api/t with an assistant's
// referrer show in the AI visits chart and the funnel's visits column; "Check site readiness"
// runs the worker's check against the demo's local site (tests/e2e/support/global-setup.ts:
// robots.txt answers 503, so it "did not answer"; llms.txt is there) and the card shows it, its
// crawler table opened by keyboard. E2E_SCREENSHOTS=<folder> saves it at 1440 and 390 px,
// light and dark.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { DEMO_USER, login, newPage, screenshotBothSchemes, setupBrowser } from "./support/browser";
import { FRESH_READ_HEADER } from "@/lib/analytics/filter-query";

setupBrowser();

const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
beforeAll(() => client.connect());
afterAll(() => client.end());

const SHOTS = process.env.E2E_SCREENSHOTS;
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const CLAUDEBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const PERPLEXITY = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A CSV log line (the format whose lines name their host), `daysAgo` days before now. */
function line(daysAgo: number, url: URL, userAgent: string, ip = "203.0.113.7", status = 200): string {
  const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  return `${at},${url.hostname},${url.pathname},${status},"${userAgent.replaceAll('"', '""')}",${ip}`;
}

/** A write key made on the Settings page, as a user would. */
async function createApiKey(page: Page): Promise<string> {
  await page.goto("/settings?tab=api-keys");
  await page.getByLabel("New key name").fill(`traffic ${Date.now()}`);
  await page.getByLabel("Scope").selectOption("write");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByLabel("New API key");
  await key.waitFor();
  return key.inputValue();
}

/** The workspace's site key from Settings → Visits script, created there when there is none yet. */
async function siteKeyOf(page: Page): Promise<string> {
  await page.goto("/settings?tab=site-key");
  const snippet = page.getByLabel("Visits script snippet");
  const create = page.getByRole("button", { name: "Create site key" });
  await snippet.or(create).first().waitFor();
  if (await create.isVisible()) await create.click();
  const key = /data-site="(bs_[A-Za-z0-9_-]{24})"/.exec((await snippet.textContent()) ?? "")?.[1];
  expect(key).toBeDefined();
  return key!;
}

async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"][aria-label="Loading"]'), null, { timeout: 30_000 });
}

async function screenshots(page: Page, size: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await screenshotBothSchemes(page, path.join(SHOTS, `traffic-${size}`));
}

describe("the Traffic page", () => {
  test("says how to import a log, then shows the imported crawls and the page funnel", { timeout: 180_000 }, async () => {
    const page = await newPage({ viewport: { width: 1440, height: 900 } });
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Traffic" }).click();
    await page.waitForURL((url) => url.pathname === "/traffic");
    await page.getByRole("heading", { name: "Import your site's access logs" }).waitFor();
    const visitsCard = page.getByRole("region", { name: "AI visits" });
    await visitsCard.getByRole("link", { name: "Settings → Visits script" }).waitFor();
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "traffic-empty-1440-light.png"), fullPage: true });

    // The demo's own page that answers cite most: crawled, it is the funnel's first row; /careers and
    // /pricing, crawled and never cited, make the "Crawled but never cited" list.
    const { rows } = await client.query<{ url: string }>(
      `SELECT r.url FROM rollup_own_pages r JOIN memberships m ON m."workspaceId" = r."workspaceId" JOIN users u ON u.id = m."userId"
       WHERE u.email = $1 AND r.day >= current_date - 13 GROUP BY r.url ORDER BY sum(r.answers) DESC, r.url`,
      [DEMO_USER.email],
    );
    const pages = new Map(rows.map((r) => new URL(r.url)).map((u) => [`${u.hostname.replace(/^www\./, "")}${u.pathname}`, u]));
    const cited = [...pages.values()];
    expect(cited.length, "the demo history cites its own pages").toBeGreaterThanOrEqual(1);
    const careers = new URL("https://lumencrm.com/careers");
    const log = [
      "timestamp,host,path,status,user_agent,ip",
      ...[1, 2, 3, 5, 8].map((d) => line(d, cited[0]!, GPTBOT)),
      line(2, cited[0]!, CLAUDEBOT),
      line(4, new URL("https://lumencrm.com/pricing"), PERPLEXITY),
      ...[1, 3, 6].map((d) => line(d, careers, CLAUDEBOT, "198.51.100.9", 404)),
      line(1, careers, CHROME),
      line(2, new URL("https://blog.lumencrm.com/guide"), CLAUDEBOT),
      "not,a,log,line",
    ].join("\n");

    const key = await createApiKey(page);
    const response = await page.request.post("/api/v1/traffic/logs", { headers: { authorization: `Bearer ${key}`, "content-type": "text/plain" }, data: log });
    const body = (await response.json()) as { import: { stored: number; errorCount: number; skipped: { notCrawler: number } } };
    expect(response.status(), JSON.stringify(body)).toBe(200);
    expect(body.import).toMatchObject({ stored: 11, errorCount: 1, skipped: { notCrawler: 1 } });

    // Visits the site's script reports: two sent by assistants (recorded), one without a referrer (not).
    const siteKey = await siteKeyOf(page);
    for (const [u, r] of [
      ["https://blog.lumencrm.com/guide?utm_medium=x", "https://chatgpt.com/"],
      ["https://blog.lumencrm.com/guide", "https://www.perplexity.ai/search"],
      ["https://blog.lumencrm.com/guide", ""],
    ]) {
      const sent = await page.request.post("/api/t", { headers: { "content-type": "text/plain" }, data: JSON.stringify({ k: siteKey, u, r }) });
      expect(sent.status()).toBe(204);
    }

    await page.goto("/traffic");
    const crawls = page.getByRole("region", { name: "AI crawler requests" });
    await crawls.getByText("11 requests, 5 unverified").waitFor();
    await visitsCard.getByText("2 visits").waitFor();
    expect(await visitsCard.getByRole("list", { name: "Legend" }).innerText()).toMatch(/ChatGPT[\s\S]*Perplexity/);
    // GPTBot's claims come from an address OpenAI does not publish: unverified.
    const crawlers = crawls.getByRole("table", { name: "Crawlers" });
    await expect.poll(() => crawlers.getByRole("row", { name: /GPTBot/ }).innerText()).toMatch(/GPTBot\s+OpenAI\s+Model training\s+5\s+0\s+5\s+0/);
    expect(await crawlers.getByRole("row", { name: /ClaudeBot/ }).innerText()).toMatch(/Anthropic/);

    const funnel = page.getByRole("region", { name: "Page funnel" });
    const table = funnel.getByRole("table", { name: "Page funnel" });
    await table.getByRole("row").nth(1).waitFor();
    const first = await table.getByRole("row").filter({ hasText: "GPTBot (5)" }).innerText();
    expect(first).toMatch(/\s6\s/); // 5 GPTBot + 1 ClaudeBot crawls
    expect(first).toMatch(/%/);

    // Site readiness: never checked, then checked by the admin's button; the worker's result shows.
    // The funnel asked again after it reads the primary (a read replica may not have the result yet).
    const funnelRequests: (string | null)[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/analytics/traffic-funnel") funnelRequests.push(request.headers()[FRESH_READ_HEADER] ?? null);
    });
    const readiness = page.getByRole("region", { name: "Site readiness" });
    await readiness.getByText("lumencrm.com").first().waitFor();
    await readiness.getByRole("button", { name: "Check site readiness" }).click();
    await readiness.getByText(/Last checked/).first().waitFor({ timeout: 60_000 });
    await readiness.getByRole("button", { name: "Check site readiness" }).waitFor({ timeout: 60_000 });
    // The local site's answers, not a failed lookup of the real domain: robots.txt's status, llms.txt found.
    const lumen = readiness.locator('[data-domain="lumencrm.com"]');
    await lumen.getByText("did not answer (crawlers then fetch nothing) (HTTP 503)").waitFor();
    await expect.poll(() => lumen.locator("dt", { hasText: "llms.txt" }).locator("xpath=following-sibling::dd[1]").innerText()).toBe("Yes");
    // The funnel reads the finished check again: the cited page checked is blocked for the search
    // and user-fetch crawlers, because robots.txt did not answer (not by its rules).
    await table.getByRole("row").filter({ hasText: "GPTBot (5)" }).getByText("robots.txt did not answer: every crawler is blocked").waitFor();
    expect(funnelRequests, "the funnel's request after the check asks for the primary").toContain("1");
    // Its crawler table by keyboard: focus the disclosure, Enter.
    await lumen.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => lumen.getByRole("table", { name: "Crawler statuses for lumencrm.com" }).getByRole("row", { name: /GPTBot/ }).innerText()).toMatch(/GPTBot\s+Model training\s+Blocked\s+Blocked by robots.txt/);
    await settled(page);
    await screenshots(page, "1440");

    // The lists by keyboard: focus the button, Enter.
    await funnel.getByRole("button", { name: "Crawled but never cited" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => funnel.getByRole("button", { name: "Crawled but never cited" }).getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await table.getByRole("row").allInnerTexts()).slice(1)).toEqual([
      expect.stringContaining("https://lumencrm.com/careers"),
      expect.stringMatching(/https:\/\/blog\.lumencrm\.com\/guide[\s\S]*\s2\s+ChatGPT 1, Perplexity 1/),
      expect.stringContaining("https://lumencrm.com/pricing"),
    ]);
    await funnel.getByText(/make them answer your prompts' questions/).waitFor();

    // The readiness check above found robots.txt unanswered (everything disallowed, RFC 9309): the
    // checked most-cited page is "blocked by robots.txt but cited", for the search and user-fetch crawlers.
    await funnel.getByRole("button", { name: "Blocked by robots.txt but cited" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => table.getByRole("row").count()).toBe(2);
    const blockedFor = ((await table.getByRole("row").nth(1).getByText(/^robots\.txt did not answer/).getAttribute("title")) ?? "").split(", ");
    expect(blockedFor).toEqual(expect.arrayContaining(["OAI-SearchBot", "ChatGPT-User", "Claude-User", "PerplexityBot"]));
    expect(blockedFor).not.toContain("GPTBot"); // training only
    await funnel.getByText(/keeps out a crawler that assistants search or fetch pages with/).waitFor();

    const top = page.getByRole("region", { name: "Top crawled pages" });
    await expect.poll(() => top.getByRole("row").count()).toBe(5);

    // A phone: nothing reaches past the right edge of the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await funnel.getByRole("button", { name: "All pages" }).click();
    await settled(page);
    const overflow = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshots(page, "390");
  });
});
