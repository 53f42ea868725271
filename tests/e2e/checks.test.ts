// The demo user runs checks against the simulated providers: starts one and watches the grid
// fill in (and finds it finished after a reload), cancels a second one while a capture is
// streaming, and retries captures that failed for good, asked in the product's own dialog (never
// the browser's confirm), with the retry's estimated cost. The connection settings a test changes
// to get there are put back when it ends, pass or fail.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";
import {
  CHECK_DEADLINE_MS,
  captureStatus,
  cellStatuses,
  cells,
  cellsOf,
  checkStatus,
  openCapture,
  progress,
  progressBar,
  promptsWith,
  section,
  startCheck,
  tableRows,
  withConnection,
} from "./support/checks";

setupBrowser();

const PROMPTS = [
  "What is the best CRM for a 10-person startup?",
  "Which CRM is easiest to set up without a dedicated admin?",
  "What are the most affordable CRMs with a good free plan?",
];
const WAITING = ["queued", "postponed", "retry wait", "running"];
const poll = { timeout: CHECK_DEADLINE_MS, interval: 250 };

async function signedIn(): Promise<Page> {
  const page = await newPage();
  await login(page, DEMO_USER.email, DEMO_USER.password);
  return page;
}

/** The messages of browser dialogs (alert, confirm) the page opened: the product asks in its own. */
function browserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (dialog) => {
    seen.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}

/** The text of the focused element. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? null);

describe("checks", () => {
  test("a started check fills in its grid, shows an answer with its mentions, and is still there after a reload", { timeout: 120_000 }, async () => {
    const page = await signedIn();
    // One call at a time on Claude keeps the check running for a few seconds, long enough to
    // see it unfinished whatever the machine's speed.
    await withConnection(page, "Simulated Claude", { "Max concurrency": "1" }, async () => {
      await startCheck(page, { prompts: PROMPTS, providers: ["Perplexity", "Claude"] });
      await progressBar(page).waitFor();
      expect((await page.getByRole("rowheader").allTextContents()).sort()).toEqual([...PROMPTS].sort());
      const columns = await page.getByRole("columnheader").allTextContents();
      expect(columns.map((c) => c.match(/^(Prompt|Perplexity|Claude)/)?.[0]).sort()).toEqual(["Claude", "Perplexity", "Prompt"]);

      const first = await progress(page);
      expect(first.total).toBe(6);
      expect(first.done).toBeLessThan(6);
      expect((await cellStatuses(page)).some((s) => WAITING.includes(s))).toBe(true);

      // Watch it fill in: the finished count only goes up, until every capture has succeeded.
      const seen = [first.done];
      await expect
        .poll(async () => {
          seen.push((await progress(page)).done);
          return seen.at(-1);
        }, poll)
        .toBe(6);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      await expect.poll(() => checkStatus(page), poll).toBe("completed");
      expect(await cellStatuses(page)).toEqual(Array(6).fill("succeeded"));
      expect(await page.getByRole("button", { name: "Cancel check" }).count()).toBe(0);

      // Each answer says whether it named the brand, and where; the legend explains every mark.
      const labels = await cells(page).evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label") ?? ""));
      for (const label of labels) expect(label).toMatch(/^Sample 1: succeeded, (named #\d+|not named), /);
      for (const cell of await cells(page).all()) {
        const label = (await cell.getAttribute("aria-label"))!;
        const position = /named #(\d+)/.exec(label)?.[1];
        expect(await cell.innerText()).toMatch(position ? new RegExp(`^●\\s*${position}\\b`) : /^○/);
      }
      const legend = await page.getByRole("list", { name: "Legend" }).getByRole("listitem").allInnerTexts();
      for (const meaning of ["brand named", "brand not named", "not analysed yet", "queued", "running", "waiting to retry", "postponed", "waiting for budget", "failed", "cancelled"]) {
        expect(legend.some((item) => item.includes(meaning))).toBe(true);
      }

      const dialog = await openCapture(page, cells(page).first());
      expect(await captureStatus(dialog)).toBe("succeeded");
      const answer = section(dialog, "Answer");
      // The answer's renderer is a chunk of its own ("Loading the answer…" until it has loaded).
      await expect.poll(async () => (await answer.innerText()).length, poll).toBeGreaterThan(200);
      expect(await answer.getByText("No answer yet.").count()).toBe(0);
      const mentions = await tableRows(section(dialog, "Mentions").getByRole("table"));
      expect(mentions.map((row) => row[0])).toContain("Lumen CRM");
      for (const row of mentions) expect(row[1]).toMatch(/^(yes|no)$/);
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached" });

      // Closing the tab loses nothing: the check lives on the server.
      await page.reload();
      await progressBar(page).waitFor();
      expect(await progress(page)).toEqual({ done: 6, total: 6 });
      expect(await checkStatus(page)).toBe("completed");
      expect(await cellStatuses(page)).toEqual(Array(6).fill("succeeded"));
    });
  });

  test("cancelling a running check stops its captures and keeps the partial answer", { timeout: 120_000 }, async () => {
    const page = await signedIn();
    // Every Gemini call streams a third of its answer, then hangs until it is aborted; one call
    // at a time keeps the second capture waiting.
    await withConnection(page, "Simulated Gemini", { "Timeouts (%)": "100", "Transient errors (%)": "0", "Max concurrency": "1" }, async () => {
      await startCheck(page, { prompts: PROMPTS.slice(0, 2), providers: ["Gemini"] });
      await expect.poll(() => promptsWith(page, "running"), poll).toHaveLength(1);
      const running = (await promptsWith(page, "running"))[0]!;
      // The other capture finds the only slot taken and waits for it to be handed on.
      await expect.poll(() => promptsWith(page, "waiting for a free slot"), poll).toEqual(PROMPTS.slice(0, 2).filter((p) => p !== running));

      // Cancel only once some text has streamed, so the cancelled capture has a partial answer.
      const live = await openCapture(page, cellsOf(page, running));
      await section(live, "Answer").getByText("streaming", { exact: true }).waitFor({ timeout: CHECK_DEADLINE_MS });
      await live.getByRole("button", { name: "Close" }).click();
      await live.waitFor({ state: "detached" });

      const native = browserDialogs(page);
      await page.getByRole("button", { name: "Cancel check" }).click();
      const confirm = page.getByRole("dialog", { name: "Cancel this check?" });
      await confirm.getByText("Cancel this check? Running answers are kept as they are.").waitFor();
      // Safe by default: the focus is on the button that changes nothing.
      await expect.poll(() => focused(page)).toBe("Keep running");
      await confirm.getByRole("button", { name: "Cancel check" }).click();
      await confirm.waitFor({ state: "hidden" });

      await expect.poll(() => checkStatus(page), poll).toBe("cancelled");
      expect(await cellStatuses(page)).toEqual(["cancelled", "cancelled"]);
      expect(await progress(page)).toEqual({ done: 2, total: 2 });
      expect(await page.getByRole("button", { name: /Cancel check|Cancelling/ }).count()).toBe(0);
      await page.getByRole("button", { name: "Retry 2 failed/cancelled" }).waitFor();
      expect(native).toEqual([]);

      const dialog = await openCapture(page, cellsOf(page, running));
      await expect.poll(() => captureStatus(dialog), poll).toBe("cancelled");
      await section(dialog, "Answer").getByText("partial", { exact: true }).waitFor();
      const [attempt] = await tableRows(section(dialog, "Attempts").getByRole("table"));
      expect(attempt?.slice(0, 3)).toEqual(["1", "cancelled", "cancelled_by_user"]);
    });
  });

  test("captures that failed for good succeed when retried after the provider is fixed", { timeout: 120_000 }, async () => {
    const page = await signedIn();
    // The rates may add up to 100 % at most, so transient errors make room for permanent ones.
    await withConnection(page, "Simulated ChatGPT", { "Transient errors (%)": "0", "Permanent errors (%)": "100" }, async (restore) => {
      await startCheck(page, { prompts: PROMPTS.slice(0, 2), providers: ["ChatGPT"] });
      await expect.poll(() => checkStatus(page), poll).toBe("failed");
      expect(await cellStatuses(page)).toEqual(["failed", "failed"]);
      expect(await cells(page).first().getAttribute("aria-label")).toBe("Sample 1: failed, Simulated invalid request (400)");

      const dialog = await openCapture(page, cells(page).first());
      expect(await captureStatus(dialog)).toBe("failed");
      await dialog.getByText("Simulated invalid request (400)", { exact: true }).waitFor();
      const [failure] = await tableRows(section(dialog, "Attempts").getByRole("table"));
      expect(failure?.slice(0, 4)).toEqual(["1", "failed", "invalid_request (permanent)", "400"]);

      await restore(); // the provider works again
      await dialog.getByRole("button", { name: "Retry" }).click();
      await expect.poll(() => captureStatus(dialog), poll).toBe("succeeded");
      await expect.poll(async () => (await section(dialog, "Answer").innerText()).length, poll).toBeGreaterThan(200);
      expect((await tableRows(section(dialog, "Attempts").getByRole("table"))).at(-1)?.[1]).toBe("succeeded");
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached" });

      // The other capture, through the check's own retry button.
      await expect.poll(() => checkStatus(page), poll).toBe("completed with errors");
      const native = browserDialogs(page);
      // The retry asks first, with what it would cost; cancelling the question changes nothing.
      const retryButton = page.getByRole("button", { name: "Retry 1 failed/cancelled" });
      await retryButton.click();
      let confirm = page.getByRole("dialog", { name: "Retry failed and cancelled captures?" });
      await confirm.getByText("1 capture goes back to the queue").waitFor();
      expect(await confirm.getByText(/^about \$\d/).count()).toBe(1);
      await confirm.getByText("Budget left this month").waitFor();
      await expect.poll(() => focused(page)).toBe("Cancel");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      await retryButton.waitFor();
      expect(await checkStatus(page)).toBe("completed with errors");
      expect((await cellStatuses(page)).sort()).toEqual(["failed", "succeeded"]);

      await retryButton.click();
      confirm = page.getByRole("dialog", { name: "Retry failed and cancelled captures?" });
      await confirm.getByRole("button", { name: "Retry 1 capture" }).click();
      await expect.poll(() => checkStatus(page), poll).toBe("completed");
      expect(native).toEqual([]);
      expect(await cellStatuses(page)).toEqual(["succeeded", "succeeded"]);
      expect(await progress(page)).toEqual({ done: 2, total: 2 });
    });
  });
});
