// The Checks, check and Jobs pages answer their first queries inside the page's own response
// (lib/pages/prefetch.ts): the server component starts them and the browser's query cache takes
// them over under the keys its components use. A key that drifts from a component's (a new
// filter, a query added to a page and not to its prefetch) does not break the page, it only
// makes the browser ask again after hydration, one server action after another: so this test
// fails a page that asks, with the request it made, for the default address and for one with a
// Jobs filter; the Overview, Sources, Traffic and Brands may ask only for the chart GETs they preload. It also fails a page whose prefetched answers made hydration differ from the
// server's render (a page error, and the theme script's dark class lost: components/prefetched-queries.tsx).
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CONTENT_MARK } from "@/lib/browser/content-mark";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

/** The server action calls (and chart requests) `path` made before its content was rendered. */
async function askedBeforeContent(page: Page, path: string): Promise<string[]> {
  const asked: { at: number; what: string }[] = [];
  const errors: string[] = [];
  const onError = (error: Error) => errors.push(error.message);
  page.on("pageerror", onError);
  const onRequest = (request: import("playwright-core").Request) => {
    const url = new URL(request.url());
    const action = request.method() === "POST" && request.headers()["next-action"];
    if (url.pathname.startsWith("/api/analytics/") || action) asked.push({ at: Date.now(), what: `${request.method()} ${url.pathname}${url.search}${action ? " (server action)" : ""}` });
  };
  page.on("request", onRequest);
  try {
    await page.goto(path, { waitUntil: "commit" });
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CONTENT_MARK, { timeout: 30_000, polling: 50 });
    // The mark's wall-clock time: a poll due after the content (the Jobs page's, every 2 s) is not a first query.
    const contentAt = await page.evaluate((mark) => performance.timeOrigin + performance.getEntriesByName(mark)[0]!.startTime, CONTENT_MARK);
    // Prefetched answers must not make the first render differ from the server's: React would
    // render the page again from scratch (an error here) and drop the theme script's class on <html>.
    expect(errors, `errors on ${path}: ${errors.join(" | ")}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark")), `${path} stays dark`).toBe(true);
    return asked.filter((a) => a.at <= contentAt).map((a) => a.what);
  } finally {
    page.off("request", onRequest);
    page.off("pageerror", onError);
  }
}

describe("first queries come with the page", () => {
  test("Checks, a check and Jobs ask for nothing before their content is shown", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.emulateMedia({ colorScheme: "dark" });
    const asked: Record<string, string[]> = {};
    const visit = async (path: string) => {
      const requests = await askedBeforeContent(page, path);
      if (requests.length) asked[path] = requests;
    };
    // The answers are the address's: the checks' list, the check's grid, the captures of the filter's page.
    await visit("/checks");
    expect(await page.locator("main table tbody tr").count(), "checks listed").toBeGreaterThan(0);
    const newestCheck = await page.locator('main table tbody tr a[href^="/checks/"]').first().getAttribute("href");
    await visit(newestCheck!);
    expect(await page.locator("main table tbody tr").count(), "the grid's prompts").toBeGreaterThan(0);
    await visit("/admin/jobs");
    await visit("/admin/jobs?status=succeeded&page=2");
    expect(await page.getByText(/^[\d,]+ captures match$/).count(), "the filtered count").toBe(1);
    expect(await page.locator('[aria-current="page"]', { hasText: /^Page 2 of \d+$/ }).count(), "the second page").toBe(1);
    expect(asked, "requests a page made for data its own response should have carried").toEqual({});
  });

  test("the Overview, Sources, Traffic and Brands ask for no server action before their content: such queries come with the page", async () => {
    // Their first charts come in one batch preloaded from the page's head (tests/e2e/dashboards.test.ts); the
    // admins' category overrides, the site readiness and the brands' re-analyses are the queries that are server actions.
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.emulateMedia({ colorScheme: "dark" });
    for (const path of ["/", "/brands", "/analytics/sources", "/traffic"]) {
      const actions = (await askedBeforeContent(page, path)).filter((what) => what.endsWith("(server action)"));
      expect(actions, path).toEqual([]);
    }
    await page.getByRole("heading", { name: "Site readiness" }).waitFor();
  });
});
