// Links ask the server for the next page on intent, not when they come into view
// (components/ui/link.tsx): a page load sends no route prefetch at all, while a pointer over a
// link, or keyboard focus on it, prefetches that route, and the click then navigates. Without
// the app's Link, next/link prefetches every sidebar link in view right after hydration (thirteen
// requests on the Overview), which this test counts.
import type { Page, Request } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CONTENT_MARK } from "@/lib/browser/content-mark";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

/** The paths of the route prefetches (Next's router sends them with `Next-Router-Prefetch: 1`) the page makes from now on. */
function recordPrefetches(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (request: Request) => {
    if (request.headers()["next-router-prefetch"] === "1") paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

describe("links prefetch on intent", () => {
  test("the Overview's load prefetches no route; hover and focus prefetch the link's; the click navigates", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    const prefetched = recordPrefetches(page);
    await page.goto("/", { waitUntil: "commit" });
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CONTENT_MARK, { timeout: 30_000, polling: 50 });
    // No request for half a second after the content: next/link's viewport prefetches start after hydration.
    await page.waitForLoadState("networkidle");
    expect(prefetched, "route prefetches while the Overview loads").toEqual([]);

    const main = page.getByRole("navigation", { name: "Main" });
    await main.getByRole("link", { name: "Sources" }).hover();
    await expect.poll(() => prefetched, { timeout: 10_000 }).toContain("/analytics/sources");
    await main.getByRole("link", { name: "Costs" }).focus();
    await expect.poll(() => prefetched, { timeout: 10_000 }).toContain("/analytics/costs");
    expect(prefetched.filter((path) => !["/analytics/sources", "/analytics/costs"].includes(path)), "only the links shown intent").toEqual([]);

    await main.getByRole("link", { name: "Sources" }).click();
    await page.waitForURL("**/analytics/sources");
    await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
  });
});
