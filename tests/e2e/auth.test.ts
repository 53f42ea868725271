// Signed-out visitors are sent to the sign-in page; a new account starts in its own workspace.
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { newPage, setupBrowser } from "./support/browser";

setupBrowser();

describe("accounts", () => {
  test("a signed-out visit to the dashboard redirects to the sign-in page", async () => {
    const page = await newPage();
    await page.goto("/");
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
  });

  test("signing up lands in the new user's own, empty workspace", async () => {
    const id = randomBytes(4).toString("hex");
    const workspaceName = `E2E Co ${id}`;
    const page = await newPage();
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Erin Tester");
    await page.getByLabel("Work email").fill(`erin-${id}@example.com`);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByLabel("Workspace name").fill(workspaceName);
    await page.getByRole("button", { name: "Create account" }).click();

    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { level: 1, name: workspaceName }).waitFor();
    const switcher = page.getByLabel("Workspace", { exact: true });
    expect(await switcher.locator("option").allTextContents()).toEqual([workspaceName, "+ New workspace…"]);
    // None of the demo workspace's data: the checklist starts empty.
    await page.getByText("0 prompt(s)").waitFor();
    await page.getByText("0 brand(s), 0 competitor(s)").waitFor();
  });
});
