// A 2,000-capture check in the browser: its page shows one page of the grid at a time, can be
// paged and a capture opened with the keyboard, and every progress poll that reaches the browser
// (the server action's response, as Chromium received it) stays under 20 KB while the check runs.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";
import { cells, progress, progressBar } from "./support/checks";

setupBrowser();

const POLL_BYTES_GOAL = 20 * 1024;
const PROMPTS = 100;
const SAMPLES = 5; // 100 prompts × 4 providers × 5 samples = 2,000 captures
const CELLS_PER_PAGE = 100; // 5 prompts × 20 cells

/** A write key made on the Settings page, as a user would. */
async function createApiKey(page: Page): Promise<string> {
  await page.goto("/settings?tab=api-keys");
  await page.getByLabel("New key name").fill(`large check ${Date.now()}`);
  await page.getByLabel("Scope").selectOption("write");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByLabel("New API key");
  await key.waitFor();
  return key.inputValue();
}

const pageLabel = (page: Page) => page.getByRole("navigation", { name: "Prompt pages" }).locator("[aria-current=page]").textContent();

describe("a 2,000-capture check", () => {
  test("pages through its grid, opens a capture, and polls under 20 KB", { timeout: 180_000 }, async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    const key = await createApiKey(page);
    const texts = Array.from({ length: PROMPTS }, (_, i) => ({ text: `Large check question ${String(i + 1).padStart(3, "0")}: which CRM suits a team of ${i + 3}?` }));
    const started = await page.request.post("/api/v1/checks", {
      headers: { authorization: `Bearer ${key}`, "idempotency-key": `e2e-large-${Date.now()}` },
      data: { prompts: texts, providers: ["ChatGPT", "Perplexity", "Gemini", "Claude"], samples: SAMPLES },
    });
    expect(started.status(), await started.text()).toBe(202);
    const checkId = ((await started.json()) as { check: { id: string } }).check.id;

    // Chromium keeps no body of a streamed fetch to hand out afterwards, so the polls are taken
    // through the route: fetched, weighed decoded (as the page reads them), and passed on whole.
    const polls: { bytes: number; page: number }[] = [];
    await page.route(/\/checks\/[0-9a-f-]{36}$/, async (route) => {
      const request = route.request();
      const pageNo = /"page":(\d+)/.exec(request.postData() ?? "")?.[1];
      if (request.method() !== "POST" || !request.headers()["next-action"] || !pageNo) return route.continue();
      const response = await route.fetch();
      const body = await response.body();
      polls.push({ bytes: body.length, page: Number(pageNo) });
      await route.fulfill({ response, body });
    });
    const pollsOf = (n: number) => polls.filter((p) => p.page === n).length;
    try {
      await page.goto(`/checks/${checkId}`);
      await progressBar(page).waitFor();
      expect((await progress(page)).total).toBe(2000);
      await expect.poll(() => cells(page).count()).toBe(CELLS_PER_PAGE);
      expect(await pageLabel(page)).toBe("Page 1 of 20");
      // Prompts made together share their creation time, so their order is the ids': read each page.
      const rows = async () => page.getByRole("rowheader").allTextContents();
      const seen = [await rows()];
      expect(seen[0]).toHaveLength(5);
      // The first poll of a page brings it whole; the next ones what changed while the check runs.
      await expect.poll(() => pollsOf(1), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);

      // Pages with the keyboard: focus Next, then Enter on it (focus stays there) to the last page.
      await page.getByRole("button", { name: "Next" }).focus();
      for (let i = 1; i < 20; i++) {
        await page.keyboard.press("Enter");
        await expect.poll(() => pageLabel(page)).toBe(`Page ${i + 1} of 20`);
        await expect.poll(async () => (await rows())[0]).not.toBe(seen.at(-1)![0]);
        seen.push(await rows());
        expect(await cells(page).count()).toBe(CELLS_PER_PAGE);
      }
      expect(seen.flat().sort()).toEqual(texts.map((t) => t.text).sort());
      expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);

      // Opens a capture from its cell with the keyboard.
      const cell = cells(page).first();
      await cell.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: /· sample \d+$/ });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached" });

      await expect.poll(() => pollsOf(20), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);

      expect(polls.length).toBeGreaterThanOrEqual(20 + 2 + 2);
      expect(new Set(polls.map((p) => p.page)).size).toBe(20);
      const largest = Math.max(...polls.map((p) => p.bytes));
      console.log(`[e2e] ${polls.length} progress polls, largest ${largest} bytes, median ${polls.map((p) => p.bytes).sort((a, b) => a - b)[polls.length >> 1]} bytes`);
      expect(largest).toBeLessThanOrEqual(POLL_BYTES_GOAL);
    } finally {
      // A poll still passing through the route when the test ends must not fail the run.
      await page.unrouteAll({ behavior: "ignoreErrors" });
      // Stop the 2,000 captures so the tests after this one get the workers back.
      const cancelled = await page.request.post(`/api/v1/checks/${checkId}/cancel`, { headers: { authorization: `Bearer ${key}` } });
      expect(cancelled.status(), await cancelled.text()).toBe(202);
    }
  });
});
