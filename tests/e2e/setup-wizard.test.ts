// A new account starts from its website: it lands on the Overview's setup path (one path, its
// steps shown), asks the simulator for suggestions, is told they are invented, edits them (by
// mouse and by keyboard), accepts, and is on its first check's page watching it progress; the
// brand and competitors it edited are what was stored. Once the check is done, a schedule is
// suggested (there and on the Overview) until one exists.
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { newPage, setupBrowser } from "./support/browser";
import { CHECK_DEADLINE_MS, progress, progressBar } from "./support/checks";

setupBrowser();

describe("first run", () => {
  test("sign up, suggest from the domain, edit, accept: the first check runs, then a schedule is suggested", { timeout: 180_000 }, async () => {
    const id = randomBytes(4).toString("hex");
    const page = await newPage();
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Fay First");
    await page.getByLabel("Work email").fill(`fay-${id}@example.com`);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByLabel("Workspace name").fill(`Tasklane ${id}`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    // Step 1, on the Overview of the empty workspace: one path, no second checklist.
    const steps = page.getByRole("list", { name: "Setup steps" });
    expect(await steps.locator('[aria-current="step"]').textContent()).toBe("1Your website");
    expect(await page.getByText("Invite your team").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Add your brand and prompts by hand" }).getAttribute("href")).toBe("/brands");
    const start = page.getByRole("form", { name: "Set up from your website" });
    await start.getByLabel("Your website").fill("https://www.tasklane.io/pricing");
    await start.getByText("Suggestions for tasklane.io").waitFor();
    await start.getByLabel("Language of the questions").selectOption({ label: "German" });
    await start.getByLabel("Country (optional)").fill("de");
    expect(await start.getByLabel("Write the suggestions with").locator("option:checked").textContent()).toMatch(/^Simulated /);
    await start.getByText(/A simulator needs no API key but knows nothing about your business/).waitFor();
    await start.getByRole("button", { name: "Suggest brand, competitors and questions" }).click();

    // Step 2: the simulator's proposal, in German, about project management (the domain's words),
    // said to be invented above the lists.
    const editor = page.getByRole("form", { name: "Edit the suggestions" });
    const brandName = editor.getByLabel("Brand name");
    await brandName.waitFor({ timeout: 30_000 });
    expect(await steps.locator('[aria-current="step"]').textContent()).toBe("2Review suggestions");
    const notice = editor.getByRole("note");
    expect(await notice.textContent()).toMatch(/^Invented by the simulator.*words in your address \(tasklane\.io\/pricing\).*competitors, their domains and the questions are invented.*connect a real assistant/);
    expect((await notice.boundingBox())!.y).toBeLessThan((await brandName.boundingBox())!.y);
    expect(await brandName.inputValue()).toBe("Tasklane");
    expect(await editor.getByLabel("Domains", { exact: true }).inputValue()).toBe("tasklane.io");
    const questions = editor.getByRole("textbox", { name: /^Question \d+$/ });
    expect(await questions.count()).toBeGreaterThanOrEqual(20);
    expect(await editor.getByLabel("Question 1", { exact: true }).inputValue()).toMatch(/Projektmanagement-Software/);

    await brandName.fill("Tasklane App");
    await editor.getByLabel("Question 1", { exact: true }).fill("Welches Projektmanagement-Tool nutzen Agenturen in Berlin?");
    // By keyboard: untick question 2 with the space bar.
    await editor.getByLabel("Ask question 2", { exact: true }).focus();
    await page.keyboard.press("Space");
    expect(await editor.getByLabel("Ask question 2", { exact: true }).isChecked()).toBe(false);
    const firstRival = await editor.getByLabel("Competitor 1 name", { exact: true }).inputValue();
    await editor.getByRole("button", { name: `Remove ${firstRival}`, exact: true }).click();
    await editor.getByRole("button", { name: "Add competitor" }).click();
    const count = await editor.getByRole("textbox", { name: /^Competitor \d+ name$/ }).count();
    await editor.getByLabel(`Competitor ${count} name`, { exact: true }).fill("Asana");
    await editor.getByLabel(`Competitor ${count} domains`, { exact: true }).fill("asana.com");
    // Only the simulated ChatGPT, so the check stays small.
    for (const other of ["Perplexity", "Gemini", "Claude"]) await editor.getByRole("checkbox", { name: new RegExp(`^${other}`) }).uncheck();
    const asked = (await questions.count()) - 1;
    await editor.getByText(`${asked} questions × 1 providers = ${asked} answers.`).waitFor();

    await editor.getByRole("button", { name: "Accept and start the first check" }).click();
    await page.waitForURL((url) => /^\/checks\/[0-9a-f-]{36}$/.test(url.pathname), { timeout: 30_000 });
    await progressBar(page).waitFor();
    expect((await progress(page)).total).toBe(asked);
    await expect.poll(async () => (await progress(page)).done, { timeout: CHECK_DEADLINE_MS, interval: 250 }).toBeGreaterThan(0);
    await page.getByRole("rowheader", { name: "Welches Projektmanagement-Tool nutzen Agenturen in Berlin?" }).waitFor();

    // Step 3 done: once the check has finished, the next step is a schedule.
    const suggestion = page.getByRole("region", { name: "Next: measure again automatically" });
    await suggestion.waitFor({ timeout: CHECK_DEADLINE_MS });
    await page.goto("/");
    await suggestion.waitFor();
    await suggestion.getByRole("link", { name: "Create a schedule" }).click();
    await page.waitForURL((url) => url.pathname === "/schedules");
    const dialog = page.getByRole("dialog", { name: "New schedule" });
    await dialog.getByLabel("Name").fill("Tasklane daily");
    await dialog.getByRole("button", { name: "Create schedule" }).click();
    await page.getByText("Tasklane daily", { exact: true }).first().waitFor();
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: `Tasklane ${id}` }).waitFor();
    expect(await suggestion.count()).toBe(0);

    // What was stored is what was edited.
    await page.goto("/brands");
    await page.getByText("Tasklane App").first().waitFor();
    await page.getByText("Asana").first().waitFor();
    expect(await page.getByText(firstRival, { exact: true }).count()).toBe(0);
  });
});
