// An admin adds alert channels and follows a test message in the delivery log. The app under test
// has no SMTP_URL, so an email channel can be saved (the page says SMTP is missing) and its test
// fails at once with that reason: a deterministic row to watch go from pending to failed through
// the log's polling. A webhook channel shows its signing secret once.
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

async function newChannel(page: Page, fill: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) {
  await page.getByRole("button", { name: "New channel" }).click();
  const dialog = page.getByRole("dialog", { name: "New channel" });
  await dialog.waitFor();
  await fill(dialog);
  await dialog.getByRole("button", { name: "Create channel" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("alert channels and the delivery log", () => {
  test("a test message to an email channel shows up in the log, fails for want of SMTP, and shows what was sent", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto("/alerts/channels");
    await page.getByRole("heading", { level: 1, name: "Alert channels" }).waitFor();
    await page.getByRole("note").filter({ hasText: "SMTP is not configured on this server (SMTP_URL)" }).waitFor();

    const name = `E2E mail ${Date.now()}`;
    await newChannel(page, async (dialog) => {
      await dialog.getByLabel("Kind").selectOption("email");
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByLabel("Email addresses").fill("ann@example.com, ben@example.com");
    });
    const channelRow = page.getByRole("table", { name: "Alert channels" }).getByRole("row").filter({ hasText: name });
    await channelRow.waitFor();
    expect(await channelRow.textContent()).toContain("ann@example.com, ben@example.com");

    await page.getByRole("button", { name: `Send a test to ${name}` }).click();
    await page.getByText("Test message queued").waitFor();

    await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Delivery log" }).click();
    await page.waitForURL((url) => url.pathname === "/alerts/deliveries");
    const log = page.getByRole("table", { name: "Delivery log" });
    await log.waitFor();
    // A delivery's own row (its expanded message is a row of its own, without the button).
    const row = log.getByRole("row").filter({ has: page.getByRole("button", { name: /^Message sent:/ }) }).filter({ hasText: name });
    // The worker sends it within seconds; the log refetches every 2 s while anything is pending.
    await row.getByText("failed", { exact: true }).waitFor({ timeout: 30_000 });
    const cells = await row.getByRole("cell").allInnerTexts();
    // When, channel, kind, subject, status, attempts, next attempt, response, last error.
    expect(cells.slice(1, 9)).toEqual([name, "Test", "Test message from Beacon", "failed", "1", "—", "—", "SMTP is not configured on this server (SMTP_URL)"]);

    const show = row.getByRole("button", { name: "Message sent: Test message from Beacon" });
    expect(await show.getAttribute("aria-expanded")).toBe("false");
    // Opened from the keyboard, which also keeps this test off the pointer: the log refetches
    // while other tests' deliveries are pending, and a new row on top moves this one between a
    // click's aim and its press. The button keeps the focus when the message row opens below it.
    await show.focus();
    await page.keyboard.press("Enter");
    const sent = page.locator(`#${await show.getAttribute("aria-controls")}`);
    await sent.waitFor();
    expect(await show.getAttribute("aria-expanded")).toBe("true");
    expect(await show.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await sent.textContent()).toContain(`This is a test of the alert channel "${name}"`);
    await page.keyboard.press("Enter"); // the focus is still on it
    await sent.waitFor({ state: "detached" });

    // Filters: by status and by channel.
    await page.getByLabel("Status").selectOption("delivered");
    await row.waitFor({ state: "detached" });
    await page.getByLabel("Status").selectOption("failed");
    await row.waitFor();
    await page.getByLabel("Channel").selectOption({ label: name });
    await row.waitFor();
    expect(await log.getByRole("row").count()).toBeGreaterThanOrEqual(2); // header + this channel's rows
    for (const text of await log.locator("tbody tr").allInnerTexts()) expect(text).toContain(name);
  });

  test("a webhook channel's signing secret is shown once, in a dialog with a copy button", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto("/alerts/channels");
    await page.getByRole("heading", { level: 1, name: "Alert channels" }).waitFor();
    const name = `E2E hook ${Date.now()}`;
    await newChannel(page, async (dialog) => {
      await dialog.getByLabel("Kind").selectOption("webhook");
      await dialog.getByLabel("Name").fill(name);
      // A public address literal: accepted without DNS (this machine has no internet).
      await dialog.getByLabel("Webhook URL").fill("https://93.184.215.14/hooks/beacon");
    });
    const secretDialog = page.getByRole("dialog", { name: `Signing secret for ${name}` });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await secretDialog.getByRole("button", { name: "Copy" }).waitFor();
    await secretDialog.getByRole("button", { name: "Done" }).click();
    await secretDialog.waitFor({ state: "detached" });

    await page.reload();
    const row = page.getByRole("table", { name: "Alert channels" }).getByRole("row").filter({ hasText: name });
    await row.waitFor();
    expect(await page.content()).not.toContain(secret.slice(6));
    await row.getByRole("button", { name: `Rotate the signing secret of ${name}` }).waitFor();
  });
});
