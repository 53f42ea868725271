// Reports to share, in the browser: the demo owner sets the agency name and logo, creates a link
// from the Overview's Share button (7 days, one provider), and a fresh browser without a session
// opens it: the brand's headline numbers with their sample sizes, the agency, no calls to the
// session-only chart API, and the headers that keep the token private. Printing (emulated)
// hides the navigation and buttons and still draws every chart with a size that fits the page.
// While the brand's answers are re-analysed, the report says its numbers are mixed. Once revoked
// in Settings, the same address shows the one invalid-link page.
import path from "node:path";
import pg from "pg";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, onTestFinished, test } from "vitest";
import { DEMO_BRAND, DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { DEMO_USER, login, newPage, screenshotBothSchemes, setupBrowser } from "./support/browser";

setupBrowser();

const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
beforeAll(() => client.connect());
afterAll(() => client.end());

// A 1x1 PNG.
const LOGO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const settled = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"][aria-label="Loading"]'), null, { timeout: 30_000 });

const tile = (page: Page, label: string) => page.getByRole("group", { name: label, exact: true });

/** The drawn size of every chart surface on the page, and the page's content width. */
async function chartSizes(page: Page) {
  return page.evaluate(() => ({
    body: document.body.getBoundingClientRect().width,
    charts: [...document.querySelectorAll("svg.recharts-surface")].map((svg) => {
      const box = svg.getBoundingClientRect();
      return { width: box.width, height: box.height };
    }),
  }));
}

async function expectPrintable(page: Page, minCharts: number) {
  await page.emulateMedia({ media: "print" });
  await page.waitForFunction(() => getComputedStyle(document.querySelector("button.print\\:hidden")!).display === "none");
  expect(await page.getByRole("button", { name: "Print / save as PDF" }).isVisible()).toBe(false);
  // recharts measures its container again once the print layout applies; a chart whose data is
  // still loading has no svg yet, so the count is waited for too.
  await page.waitForFunction(
    (min) => {
      const svgs = [...document.querySelectorAll("svg.recharts-surface")];
      return svgs.length >= min && svgs.every((svg) => svg.getBoundingClientRect().width > 100);
    },
    minCharts,
    { timeout: 10_000 },
  );
  expect(await page.getByRole("navigation", { name: "Main" }).isVisible().catch(() => false)).toBe(false);
  const { body, charts } = await chartSizes(page);
  expect(charts.length).toBeGreaterThanOrEqual(minCharts);
  for (const size of charts) {
    expect(size.width, JSON.stringify(charts)).toBeGreaterThan(100);
    expect(size.height, JSON.stringify(charts)).toBeGreaterThan(50);
    expect(size.width, `fits the page (${body}px)`).toBeLessThanOrEqual(body + 1);
  }
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  await page.emulateMedia({ media: "screen" });
}

// The last 7 days fall in one week on a Sunday (UTC): Visibility over time then shows its one
// point per provider without a chart ("no trend to draw yet"), one chart fewer.
const trendCharts = new Date().getUTCDay() === 0 ? 0 : 1;

describe("share links", () => {
  test("an admin shares the Overview; a visitor without an account sees it until it is revoked", async () => {
    const admin = await newPage();
    await login(admin, DEMO_USER.email, DEMO_USER.password);

    // Agency branding.
    await admin.goto("/settings?tab=branding");
    await admin.getByLabel("Agency name").fill("North Star Agency");
    await admin.setInputFiles("#agency-logo", { name: "logo.png", mimeType: "image/png", buffer: LOGO });
    await admin.getByRole("button", { name: "Save branding" }).click();
    await admin.getByText("Current: PNG").waitFor();

    // The Overview for the last 7 days and one provider, shared from its Share dialog.
    await admin.goto("/?range=7");
    await tile(admin, "Visibility").waitFor({ timeout: 30_000 });
    await admin.locator("summary", { has: admin.locator("#analytics-providers-value") }).click();
    await admin.getByRole("checkbox", { name: "ChatGPT" }).check();
    await admin.waitForURL((url) => !!url.searchParams.get("providers"));
    await settled(admin);
    const dashboardVisibility = await tile(admin, "Visibility").innerText();
    expect(dashboardVisibility).toMatch(/n = [\d,]+ answers/);

    // Visibility (unless on a Sunday), share of voice, positions.
    await expectPrintable(admin, 2 + trendCharts);

    await admin.getByRole("button", { name: "Share", exact: true }).click();
    await admin.getByLabel("Label (for your list)").fill("Client report e2e");
    await admin.getByLabel("Works for").selectOption("7");
    await admin.getByRole("button", { name: "Create link" }).click();
    const url = await admin.getByLabel("Link").inputValue();
    expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);

    // A fresh browser context: no session cookie.
    const visitor = await newPage();
    const chartCalls: string[] = [];
    visitor.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) chartCalls.push(request.url());
    });
    const response = (await visitor.goto(url)) as Response;
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-robots-tag"]).toContain("noindex");
    expect(await visitor.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    await tile(visitor, "Visibility").waitFor();
    await settled(visitor);
    // The same headline numbers as the dashboard's for that filter.
    expect(await tile(visitor, "Visibility").innerText()).toBe(dashboardVisibility);
    expect(await visitor.getByRole("heading", { level: 1 }).innerText()).toContain("Lumen CRM");
    expect(await visitor.locator("[data-report-scope]").innerText()).toMatch(/Last 7 days.*Providers: ChatGPT/);
    expect(await visitor.locator("[data-prepared-by]").innerText()).toContain("Prepared by North Star Agency");
    const logo = visitor.getByRole("img", { name: "North Star Agency logo" });
    await visitor.waitForFunction(() => (document.querySelector("[data-prepared-by] img") as HTMLImageElement | null)?.naturalWidth === 1);
    expect(await logo.isVisible()).toBe(true);
    const logoResponse = await visitor.request.get(`${url}/logo`);
    expect(logoResponse.headers()["content-type"]).toBe("image/png");
    expect(logoResponse.headers()["x-content-type-options"]).toBe("nosniff");
    expect(logoResponse.headers()["content-security-policy"]).toBe("default-src 'none'");
    // Nothing of the dashboard: no navigation, and no call to the session-only API.
    expect(await visitor.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    expect(chartCalls).toEqual([]);

    // The same and the top cited domains.
    await expectPrintable(visitor, 3 + trendCharts);

    // While the brand's past answers are re-analysed the report says its numbers are mixed, and
    // nothing of the run (its progress or error is the workspace's).
    const caveat = visitor.getByRole("status").filter({ hasText: "Lumen CRM's past answers are being re-analysed with its current names, domains and competitors." });
    expect(await caveat.count(), "no run: no caveat").toBe(0);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO analysis_runs (id, "workspaceId", "brandId", status, total, done, "startedAt")
       SELECT gen_random_uuid(), b."workspaceId", b.id, 'running', 40, 12, now() FROM brands b JOIN workspaces w ON w.id = b."workspaceId"
       WHERE w.slug = $1 AND b.name = $2 RETURNING id`,
      [DEMO_WORKSPACE.slug, DEMO_BRAND.name],
    );
    // A run no job works on: later files must not find the demo brand's alerts waiting for it.
    onTestFinished(async () => void (await client.query("DELETE FROM analysis_runs WHERE id = $1", [rows[0]!.id])));
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await visitor.setViewportSize({ width, height });
      await visitor.goto(url);
      await caveat.waitFor();
      await settled(visitor);
      expect(await caveat.innerText()).not.toMatch(/12|40/);
      if (process.env.E2E_SCREENSHOTS) await screenshotBothSchemes(visitor, path.join(process.env.E2E_SCREENSHOTS, `shared-report-re-analysing-${width}`));
    }
    await client.query("DELETE FROM analysis_runs WHERE id = $1", [rows[0]!.id]);
    await visitor.goto(url);
    await tile(visitor, "Visibility").waitFor();
    expect(await caveat.count(), "the run gone: no caveat").toBe(0);

    // Revoked in Settings: the same address is the invalid-link page, like an unknown token.
    await admin.goto("/settings?tab=share-links");
    await admin.getByRole("button", { name: "Revoke Client report e2e" }).click();
    await admin.locator("tr", { hasText: "Client report e2e" }).getByText("revoked").waitFor();
    const revoked = (await visitor.goto(url)) as Response;
    expect(revoked.status()).toBe(404);
    expect(revoked.headers()["x-robots-tag"]).toContain("noindex");
    const revokedText = await visitor.getByRole("heading", { level: 1 }).innerText();
    expect(revokedText).toBe("This link is not valid or has expired");
    expect(await visitor.getByRole("group", { name: "Visibility" }).count()).toBe(0);
    const unknown = (await visitor.goto(`/share/${"A".repeat(43)}`)) as Response;
    expect(unknown.status()).toBe(404);
    expect(await visitor.getByRole("heading", { level: 1 }).innerText()).toBe(revokedText);
    expect((await visitor.goto(`${url}/logo`))!.status()).toBe(404);
  });
});
