// Visits sent by assistants, in Chromium (issue 21 item 2, docs/traffic.md): the demo owner
// creates the site key in Settings and copies the snippet; a tiny "customer site" on another
// port (served under the demo brand's own domain, which Chromium resolves to 127.0.0.1) carries
// it. Reached with an assistant's referrer, the visit is recorded (by sendBeacon, or by the pixel
// where sendBeacon is missing); reached without one, nothing is. Each page waits for the answer
// to its report, so "nothing recorded" is judged after the server decided, without sleeping.
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

/** The demo brand's own domain (lib/seed/demo-content.ts). */
const SITE = "lumencrm.com";
setupBrowser({ args: [`--host-resolver-rules=MAP ${SITE} 127.0.0.1`] });

const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
let snippet = "";
let site: http.Server;
let siteUrl = "";

beforeAll(async () => {
  await client.connect();
  // The customer's site: every path is a page with the snippet Settings showed.
  site = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>Lumen CRM</title></head><body><h1>Lumen CRM</h1>${snippet}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://${SITE}:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await client.end();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const siteKeyOf = (text: string) => /data-site="(bs_[A-Za-z0-9_-]{24})"/.exec(text)?.[1];

async function visitsOf(key: string) {
  const { rows } = await client.query<{ domain: string; path: string; assistant: string; visits: number }>(
    `SELECT v.domain, v.path, v.assistant, v.visits FROM traffic_visits_daily v JOIN traffic_site_keys k USING ("workspaceId") WHERE k.key = $1 AND v.domain = $2 ORDER BY v.path`,
    [key, SITE],
  );
  return rows;
}

/** Opens a page of the site (with a referrer, as a click in an answer would) and waits for the script's report to be answered. */
async function visit(page: Page, path: string, referer: string | undefined, endpoint: "/api/t" | "/t.gif") {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === endpoint, { timeout: 15_000 });
  await page.goto(`${siteUrl}${path}`, referer ? { referer } : {});
  const response = await answered;
  expect(await page.evaluate(() => document.referrer)).toBe(referer ?? "");
  return response;
}

describe("visits sent by assistants", () => {
  test("the site's page reports visits; only the one an assistant sent is recorded", async () => {
    const admin = await newPage();
    await login(admin, DEMO_USER.email, DEMO_USER.password);
    await admin.goto("/settings?tab=site-key");
    // tests/e2e/traffic.test.ts may have created the key already.
    const create = admin.getByRole("button", { name: "Create site key" });
    await admin.getByLabel("Visits script snippet").or(create).first().waitFor();
    if (await create.isVisible()) await create.click();
    snippet = (await admin.getByLabel("Visits script snippet").textContent()) ?? "";
    expect(snippet).toMatch(/^<script src="http:\/\/localhost:\d+\/t\.js" data-site="bs_[A-Za-z0-9_-]{24}" async><\/script>$/);
    const key = siteKeyOf(snippet)!;

    const visitor = await newPage();
    const plain = await visit(visitor, "/features", undefined, "/api/t");
    expect(plain.status()).toBe(204);
    expect(plain.request().method()).toBe("POST");
    expect(await visitsOf(key)).toEqual([]);

    const sent = await visit(visitor, "/pricing?plan=team", "http://chatgpt.com/", "/api/t");
    expect(sent.status()).toBe(204);
    expect(await visitsOf(key)).toEqual([{ domain: SITE, path: "/pricing", assistant: "ChatGPT", visits: 1 }]);
  });

  test("without sendBeacon the pixel reports the visit", async () => {
    const key = siteKeyOf(snippet);
    expect(key, "the first test created the site key").toBeDefined();
    const visitor = await newPage();
    await visitor.addInitScript(() => {
      delete (Navigator.prototype as { sendBeacon?: unknown }).sendBeacon;
    });
    const plain = await visit(visitor, "/about", undefined, "/t.gif");
    expect(plain.headers()["content-type"]).toBe("image/gif");
    const sent = await visit(visitor, "/docs", "http://www.perplexity.ai/", "/t.gif");
    expect(sent.status()).toBe(200);
    expect(await visitsOf(key!)).toEqual([
      { domain: SITE, path: "/docs", assistant: "Perplexity", visits: 1 },
      { domain: SITE, path: "/pricing", assistant: "ChatGPT", visits: 1 },
    ]);
  });
});
