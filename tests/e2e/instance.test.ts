// Provider connections belong to the instance. The demo user, the instance's operator, adds a
// connection, changes a simulator's cap and grants the OpenAI connection to a team's workspace
// with a monthly limit; that workspace's admin then adds a provider on it with a model from its
// allowlist, and sees its prices without being able to change them. Someone who joins with an
// invitation and starts a workspace of their own gets the simulators only, in Settings and in
// the New check form, and the Instance page refuses them.
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";
import { tableRows, withConnection } from "./support/checks";

setupBrowser();

const SIMULATED = ["Simulated ChatGPT", "Simulated Claude", "Simulated Gemini", "Simulated Perplexity"];

async function signedIn(): Promise<Page> {
  const page = await newPage();
  await login(page, DEMO_USER.email, DEMO_USER.password);
  return page;
}

/** Starts a workspace from the switcher in the sidebar and waits until it is the active one. */
async function newWorkspace(page: Page, name: string): Promise<void> {
  // The visible button beside the workspace picker (its select also ends with "+ New workspace…").
  await page.getByRole("button", { name: "+ New workspace" }).click();
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** The value of the option of `select` whose text starts with `text`. */
async function optionValue(select: Locator, text: string): Promise<string> {
  const value = await select.locator("option").filter({ hasText: new RegExp(`^${text}`) }).first().getAttribute("value");
  expect(value, `an option "${text}…"`).toBeTruthy();
  return value!;
}

/** The cells of the row whose first cell starts with `name`. */
async function rowOf(table: Locator, name: string): Promise<string[] | undefined> {
  return (await tableRows(table)).find((cells) => cells[0]?.startsWith(name));
}

const options = (select: Locator) => select.locator("option").allTextContents();

describe("provider connections", () => {
  test("an operator adds a connection, caps a simulator and grants OpenAI with a limit; the workspace's admin adds a provider on it", { timeout: 120_000 }, async () => {
    const id = randomBytes(3).toString("hex");
    const team = `Team ${id}`;
    const page = await signedIn();
    await page.getByRole("navigation", { name: "Operations" }).getByRole("link", { name: "Instance" }).click();
    await page.getByRole("heading", { level: 1, name: "Instance" }).waitFor();
    const connections = page.getByRole("region", { name: "Connections" });

    // A new connection, with its allowlist typed one model per line.
    await connections.getByRole("button", { name: "Add connection" }).click();
    const add = page.getByRole("dialog", { name: "Add a connection" });
    await add.getByLabel("Name", { exact: true }).fill(`Sandbox ${id}`);
    await add.getByLabel("Allowed models").fill("sim-small\nsim-large");
    await add.getByLabel("Max concurrency").fill("2");
    await add.getByRole("button", { name: "Add connection" }).click();
    await add.waitFor({ state: "detached" });
    await expect.poll(() => rowOf(connections, `Sandbox ${id}`)).toEqual([`Sandbox ${id}`, "Simulator", "configured", "sim-smallsim-large", "2", expect.any(String), "0 workspaces", "EditTest"]);

    // The cap of a simulator is the connection's, for every workspace together.
    await withConnection(page, "Simulated Gemini", { "Max concurrency": "3" }, async () => {
      await page.reload();
      await expect.poll(async () => (await rowOf(connections, "Simulated Gemini"))?.[4]).toBe("3");
    });

    // OpenAI offers a second model.
    await connections.getByRole("button", { name: "Edit OpenAI", exact: true }).click();
    const edit = page.getByRole("dialog", { name: "Edit OpenAI" });
    await edit.getByLabel("Allowed models").fill("gpt-5-mini\ngpt-5");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });

    // A team's workspace gets OpenAI with $25 a month.
    await newWorkspace(page, team);
    await page.goto("/instance");
    const openai = page.getByRole("region", { name: "OpenAI", exact: true });
    await openai.getByRole("button", { name: "Grant OpenAI to a workspace" }).click();
    const grant = page.getByRole("dialog", { name: "Grant OpenAI" });
    const workspace = grant.getByLabel("Workspace");
    await workspace.selectOption(await optionValue(workspace, team));
    await grant.getByLabel("Monthly spend limit (USD)").fill("25");
    await grant.getByRole("button", { name: "Grant", exact: true }).click();
    await grant.waitFor({ state: "detached" });
    await expect.poll(async () => (await rowOf(openai, team))?.[1]).toBe("$25.00");

    // The team's admin (the demo user is its owner) adds a provider on it.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    // Settings opens on its first tab; providers have their own.
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Providers" }).click();
    await page.waitForURL((url) => url.searchParams.get("tab") === "providers");
    expect(await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Providers" }).getAttribute("aria-current")).toBe("page");
    const providers = page.getByRole("region", { name: "Providers" });
    await providers.getByRole("button", { name: "Add provider" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a provider" });
    const connection = dialog.getByLabel("Connection");
    const offered = await options(connection);
    expect(offered.filter((o) => o.startsWith("Simulated")).sort()).toEqual(SIMULATED);
    expect(offered.some((o) => o.startsWith("OpenAI"))).toBe(true);
    // Neither a connection granted to nobody nor one granted elsewhere.
    expect(offered.some((o) => o.startsWith("Anthropic") || o.startsWith(`Sandbox ${id}`))).toBe(false);

    await connection.selectOption(await optionValue(connection, "OpenAI"));
    const model = dialog.getByLabel("Model");
    expect(await options(model)).toEqual(["gpt-5-mini", "gpt-5"]);
    await model.selectOption("gpt-5");
    expect(await dialog.getByLabel("Name").inputValue()).toBe("OpenAI API");
    // Prices are shown for information; nothing about the connection can be changed here.
    await dialog.getByText("Prices on OpenAI").waitFor();
    await dialog.getByText("This workspace may spend up to $25.00 a month on it.").waitFor();
    expect(await dialog.getByRole("textbox").count()).toBe(1);
    await dialog.getByRole("button", { name: "Add provider" }).click();
    await dialog.waitFor({ state: "detached" });

    // Name, connection (with the grant's limit), model, search, prices, status, actions.
    await expect
      .poll(() => rowOf(providers, "OpenAI API"))
      .toEqual(["OpenAI API", "OpenAI up to $25.00 a month", "gpt-5", "Model decides", expect.stringMatching(/^\$0\.25 in · \$2\.00 out/), expect.stringMatching(/^enabled/), "EditDisable"]);

    // The operator takes OpenAI back: the provider says which change stopped it.
    await page.goto("/instance");
    await openai.getByRole("button", { name: `Revoke OpenAI from ${team}` }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke access?" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect.poll(() => rowOf(openai, team)).toBeUndefined();
    await page.goto("/settings?tab=providers");
    await expect.poll(async () => (await rowOf(providers, "OpenAI API"))?.[5]).toMatch(/not granted.*The operator revoked this workspace's access to OpenAI\./);
  });

  test("a workspace without grants gets only the simulators, and the Instance page refuses its owner", { timeout: 120_000 }, async () => {
    const id = randomBytes(3).toString("hex");
    const email = `stranger-${id}@example.com`;

    // The demo user invites them (works whatever BEACON_SIGNUP says).
    const demo = await signedIn();
    await demo.goto("/members");
    await demo.getByLabel("Email", { exact: true }).fill(email);
    await demo.getByLabel("Role", { exact: true }).selectOption("viewer");
    await demo.getByRole("button", { name: "Create invite link" }).click();
    const link = await demo.getByLabel("Invitation link").inputValue();

    const page = await newPage();
    await page.goto(link);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Your name").fill("Sam Stranger");
    await page.getByLabel("Password").fill(`stranger-${id}-long-passphrase`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.waitFor();
    await newWorkspace(page, `Stranger Co ${id}`);

    // No Instance page for them: not in the navigation (no Operations section at all), and refused when typed.
    expect(await page.getByRole("link", { name: "Instance" }).count()).toBe(0);
    await page.goto("/instance");
    await page.getByRole("heading", { name: "Only operators can see this page" }).waitFor();
    expect(await page.getByRole("region", { name: "Connections" }).count()).toBe(0);

    // Settings: the simulators only, and a hint to ask an operator.
    await page.goto("/settings?tab=providers");
    const providers = page.getByRole("region", { name: "Providers" });
    await providers.getByText("Ask an operator to grant a real provider").waitFor();
    await providers.getByRole("button", { name: "Add provider" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a provider" });
    expect((await options(dialog.getByLabel("Connection"))).sort()).toEqual(SIMULATED);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // New check: a brand and a prompt first, then only the four simulated assistants to pick.
    await page.goto("/brands");
    await page.getByRole("button", { name: "Add your brand" }).click();
    const brand = page.getByRole("dialog", { name: "Add a brand" });
    await brand.getByLabel("Brand name").fill(`Stranger Brand ${id}`);
    await brand.getByRole("button", { name: "Add brand" }).click();
    await brand.waitFor({ state: "detached" });
    await page.goto("/prompts");
    await page.getByRole("button", { name: "Add your first prompt" }).click();
    const prompt = page.getByRole("dialog", { name: "Add a prompt" });
    await prompt.getByLabel("Question").fill("Which CRM should a stranger pick?");
    await prompt.getByRole("button", { name: "Add prompt" }).click();
    await prompt.waitFor({ state: "detached" });

    await page.goto("/checks/new");
    const picker = page.getByRole("group", { name: "Providers" });
    await picker.waitFor();
    const names = await picker.getByRole("checkbox").evaluateAll((boxes) => boxes.map((b) => b.closest("label")?.querySelector(".font-medium")?.textContent ?? ""));
    expect(names.sort()).toEqual(["ChatGPT", "Claude", "Gemini", "Perplexity"]);
  });
});
