// The demo user manages the questions Beacon asks: add one through the dialog, see the inline
// error first, and find it in the list (also after a reload). The dialog works from the keyboard.
// An edit dialog opened before another tab's edit cannot save over it (lib/validation/edit-version.ts).
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

const rows = (page: Page) => page.locator("table tbody tr");

/** How many prompts the workspace has: the pager's "1–25 of N" once there is more than a page, else the rows. */
async function promptCount(page: Page): Promise<number> {
  const pager = page.getByText(/^\d+–\d+ of \d+/);
  if (await pager.count()) return Number((await pager.textContent())!.split(" of ")[1]!.split(" ")[0]);
  return rows(page).count();
}

async function openPromptsFromSidebar(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Prompts" }).click();
  await page.waitForURL((url) => url.pathname === "/prompts");
  await page.getByRole("heading", { level: 1, name: "Prompts" }).waitFor();
  await page.getByRole("table").waitFor();
}

describe("prompts", () => {
  test("the demo user adds a prompt with tags after fixing a too-short question", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await openPromptsFromSidebar(page);
    // The demo seed's 12, and whatever other tests of this run added (newest first on the first page).
    const before = await promptCount(page);
    expect(before).toBeGreaterThanOrEqual(12);

    await page.getByRole("button", { name: "Add prompt" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a prompt" });
    await dialog.waitFor();
    const question = dialog.getByLabel("Question");
    await question.fill("ab");
    await dialog.getByRole("button", { name: "Add prompt" }).click();

    const error = dialog.getByRole("alert");
    await error.waitFor();
    expect(await error.textContent()).toBe("Write a question of at least 3 characters");
    expect(await question.getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.isVisible()).toBe(true);
    expect(await promptCount(page)).toBe(before);

    const text = `Which CRM do agencies recommend for client reporting? (e2e ${Date.now()})`;
    await question.fill(text);
    await dialog.getByLabel("Tags").fill("Agencies, reporting ");
    await dialog.getByRole("button", { name: "Add prompt" }).click();
    await dialog.waitFor({ state: "detached" });

    const added = rows(page).filter({ hasText: text });
    await added.waitFor();
    // Tags are stored lower-cased and trimmed.
    expect(await added.locator("td").nth(2).innerText()).toBe("agencies\nreporting");
    expect(await promptCount(page)).toBe(before + 1);

    await page.reload();
    await page.getByRole("table").waitFor();
    await added.waitFor();
    expect(await promptCount(page)).toBe(before + 1);
    expect(await added.locator("td").nth(2).innerText()).toBe("agencies\nreporting");
  });

  test("an edit dialog opened before another tab saved the prompt is refused, and opened again it shows the prompt as it is", async () => {
    const [first, second] = [await newPage(), await newPage()];
    for (const page of [first, second]) {
      await login(page, DEMO_USER.email, DEMO_USER.password);
      await openPromptsFromSidebar(page);
    }
    const text = `Which CRM keeps two tabs apart? (e2e ${Date.now()})`;
    await first.getByRole("button", { name: "Add prompt" }).click();
    const adding = first.getByRole("dialog", { name: "Add a prompt" });
    await adding.getByLabel("Question").fill(text);
    await adding.getByLabel("Tags").fill("alpha, beta");
    await adding.getByRole("button", { name: "Add prompt" }).click();
    await adding.waitFor({ state: "detached" });

    // The first tab opens the prompt's Edit dialog (it holds alpha, beta).
    const editIn = async (page: Page) => {
      await rows(page).filter({ hasText: text }).getByRole("button", { name: "Edit" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit prompt" });
      await dialog.waitFor();
      return dialog;
    };
    const stale = await editIn(first);
    expect(await stale.getByLabel("Tags").inputValue()).toBe("alpha, beta");
    // The second tab takes beta off and saves.
    await second.reload();
    await second.getByRole("table").waitFor();
    const fresh = await editIn(second);
    await fresh.getByLabel("Tags").fill("alpha");
    await fresh.getByRole("button", { name: "Save" }).click();
    await fresh.waitFor({ state: "detached" });

    // The first tab rewords the question and saves: refused, said so, nothing stored.
    await stale.getByLabel("Question").fill(`${text} reworded`);
    await stale.getByRole("button", { name: "Save" }).click();
    await first.getByText(/changed since this form was opened/).waitFor();
    expect(await stale.isVisible()).toBe(true);
    await first.keyboard.press("Escape");
    await stale.waitFor({ state: "detached" });
    // The list reloaded: opened again, the dialog shows the second tab's tags, and saves.
    const reopened = await editIn(first);
    expect(await reopened.getByLabel("Tags").inputValue()).toBe("alpha");
    await reopened.getByLabel("Question").fill(`${text} reworded`);
    await reopened.getByRole("button", { name: "Save" }).click();
    await reopened.waitFor({ state: "detached" });
    const row = rows(first).filter({ hasText: `${text} reworded` });
    await row.waitFor();
    expect(await row.locator("td").nth(2).innerText()).toBe("alpha");
  });

  test("the add-prompt dialog opens from the keyboard and Escape closes it without adding", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto("/prompts");
    await page.getByRole("table").waitFor();
    const before = await rows(page).count();

    const opener = page.getByRole("button", { name: "Add prompt" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Add a prompt" });
    await dialog.waitFor();
    await dialog.getByLabel("Question").fill("Written, then abandoned");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Focus goes back to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Add prompt");
    expect(await rows(page).count()).toBe(before);
    expect(await rows(page).filter({ hasText: "Written, then abandoned" }).count()).toBe(0);
  });
});
