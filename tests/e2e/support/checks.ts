// What the checks tests do through the UI: change a simulated connection on the Instance page
// (and put it back), start a check from /checks/new, and read the check page's progress, grid
// and status.
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** How long a check page may take to reach a state; captures answer in 0.2-0.8 s each in the e2e app. */
export const CHECK_DEADLINE_MS = 45_000;

/**
 * Runs `body` with fields of a connection changed on the Instance page (keyed by their labels, in
 * the form's units; the demo user is the instance's operator), then puts the previous values
 * back, also when `body` fails (a failure to restore is then logged, not thrown over the test's
 * own error). `body` may restore earlier itself. The e2e app's SIMULATOR_LATENCY_MS wins over the
 * latency fields, so tests make a simulated assistant slow with "Max concurrency" and
 * "Timeouts (%)" instead.
 */
export async function withConnection(page: Page, name: string, values: Record<string, string>, body: (restore: () => Promise<void>) => Promise<void>): Promise<void> {
  const previous = await editConnection(page, name, values);
  let restored = false;
  const restore = async () => {
    if (restored) return;
    await editConnection(page, name, previous);
    restored = true;
  };
  try {
    await body(restore);
  } catch (error) {
    await restore().catch((restoreError: unknown) => console.error(`[e2e] could not restore ${name} after the failure:`, restoreError));
    throw error;
  }
  await restore();
}

/**
 * Edits in a tab of its own, closed afterwards: the test's page stays where it is (and is what a
 * failure screenshot shows). Left open, the extra tab would throttle the other one's animation
 * frames to about one a second, and every Playwright click there would wait seconds to be "stable".
 */
async function editConnection(signedIn: Page, name: string, values: Record<string, string>): Promise<Record<string, string>> {
  const page = await signedIn.context().newPage();
  try {
    await page.goto("/instance");
    await page.getByRole("button", { name: `Edit ${name}`, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Edit ${name}` });
    await dialog.waitFor();
    const previous: Record<string, string> = {};
    for (const [label, value] of Object.entries(values)) {
      const input = dialog.getByLabel(label, { exact: true });
      previous[label] = await input.inputValue();
      await input.fill(value);
    }
    await dialog.getByRole("button", { name: "Save" }).click();
    const refused = dialog.getByRole("alert");
    await Promise.race([dialog.waitFor({ state: "detached" }), refused.first().waitFor()]);
    if (await dialog.isVisible()) throw new Error(`Saving ${name} was refused: ${(await refused.allTextContents()).join("; ")}`);
    return previous;
  } finally {
    await page.close();
  }
}

/** Starts a check of the given demo prompts (by their text) on the given simulated providers, 1 sample, and lands on its page. */
export async function startCheck(page: Page, choice: { prompts: string[]; providers: string[] }): Promise<void> {
  await page.goto("/checks/new");
  await page.getByRole("heading", { level: 1, name: "New check" }).waitFor();
  await page.getByRole("radio", { name: "Pick prompts" }).check();
  for (const text of choice.prompts) await page.getByRole("checkbox", { name: text }).check();
  // Every usable provider starts ticked. Accessible names read "<name> <model> simulated";
  // the disabled real providers are "<name> API ...".
  const providers = page.getByRole("group", { name: "Providers" });
  for (const name of ["ChatGPT", "Perplexity", "Gemini", "Claude"]) {
    await providers.getByRole("checkbox", { name: new RegExp(`^${name} (?!API)`) }).setChecked(choice.providers.includes(name));
  }
  expect(await page.getByLabel("Samples per prompt and provider").inputValue()).toBe("1");

  const summary = page.locator("aside");
  const captures = String(choice.prompts.length * choice.providers.length);
  const value = (term: string) => summary.locator(`xpath=.//dt[.='${term}']/following-sibling::dd`).textContent();
  await expect.poll(() => value("Captures"), { timeout: 10_000 }).toBe(captures);
  expect(await value("Estimated cost")).toMatch(/^\$\d+\.\d{2,4}$/);

  await page.getByRole("button", { name: "Run check" }).click();
  await page.waitForURL(/\/checks\/[0-9a-f-]{36}$/);
}

export const progressBar = (page: Page) => page.getByRole("progressbar", { name: /captures finished$/ });

/** Finished captures and all captures, as the progress bar reports them to assistive technology. */
export async function progress(page: Page): Promise<{ done: number; total: number }> {
  const bar = progressBar(page);
  return { done: Number(await bar.getAttribute("aria-valuenow")), total: Number(await bar.getAttribute("aria-valuemax")) };
}

/** The grid's capture cells. The rows may change order between updates, so find one by its prompt. */
export const cells = (page: Page): Locator => page.getByRole("main").getByRole("table").getByRole("button", { name: /^Sample \d+: / });

/** The cells in the row of this prompt. */
export const cellsOf = (page: Page, prompt: string): Locator =>
  page.getByRole("main").getByRole("row").filter({ has: page.getByRole("rowheader", { name: prompt, exact: true }) }).getByRole("button", { name: /^Sample \d+: / });

const statusOf = (label: string) => label.replace(/^Sample \d+: /, "").split(", ")[0]!;

/** Each cell's status from its label "Sample 1: succeeded, 1.2 s, $0.0031". */
export async function cellStatuses(page: Page): Promise<string[]> {
  return (await cells(page).evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label") ?? ""))).map(statusOf);
}

/** The prompts whose rows have a cell with this status. */
export async function promptsWith(page: Page, status: string): Promise<string[]> {
  const rows = await page
    .getByRole("main")
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => ({ prompt: tr.querySelector("th")?.textContent ?? "", labels: [...tr.querySelectorAll("button")].map((b) => b.getAttribute("aria-label") ?? "") })));
  return rows.filter((row) => row.labels.some((label) => statusOf(label) === status)).map((row) => row.prompt);
}

const CHECK_STATUSES = /^(queued|running|completed|completed with errors|failed|cancelled)$/;

/** The check's status badge: the first status word on the page (cells show symbols, dialogs come after it). */
export const checkStatus = (page: Page) => page.getByRole("main").getByText(CHECK_STATUSES).first().textContent();

/** Opens a capture's detail dialog from its cell. */
export async function openCapture(page: Page, cell: Locator): Promise<Locator> {
  await cell.click();
  const dialog = page.getByRole("dialog", { name: /· sample \d+$/ });
  await dialog.waitFor();
  // The answer's markdown renderer loads when the first capture opens (components/checks/capture-detail-dialog.tsx).
  await dialog.getByText("Loading the answer…").waitFor({ state: "detached" });
  return dialog;
}

/** The capture dialog's status badge, the first status word in it. */
export const captureStatus = (dialog: Locator) =>
  dialog.getByText(/^(queued|running|waiting to retry|postponed|succeeded|failed|cancelled)$/).first().textContent();

/** A titled section of the capture dialog ("Answer", "Mentions", "Attempts"). */
export const section = (dialog: Locator, title: string) =>
  dialog.locator("section").filter({ has: dialog.page().getByRole("heading", { level: 3, name: new RegExp(`^${title}\\b`) }) });

/** The rows of a table as arrays of cell texts. */
export const tableRows = (table: Locator) =>
  table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent?.trim() ?? "")));
