// The Overview's changes are judged, not just shown, on constructed data with a known p: a
// workspace whose brand went from 30 of 100 answers to 70 of 100 (two-proportion z = 5.66,
// p ≈ 1.5e-8: beyond noise, good news) while its average position went from 2.00 (15 × 1st,
// 15 × 3rd) to 1.97 (36 × 1st, 34 × 3rd), a -0.03 change (Welch z = -0.129, p = 0.897: within
// noise, grey although lower is better). Both p values worked out by hand (Python, math.erfc).
// Share of voice against two competitors gets the same treatment, per entity (see construct).
// Then the filter: ticking a provider keeps the old numbers dimmed under a progress bar with
// aria-busy until the new ones arrive (their request held by the test, no sleeps), and
// providers without answers in the period say "no data".
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { newPage, setupBrowser } from "./support/browser";

setupBrowser();

const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
beforeAll(() => client.connect());
afterAll(() => client.end());

const id = randomBytes(4).toString("hex");
const EMAIL = `honest-${id}@example.com`;
const PASSWORD = "honest deltas passphrase";

/** Signs a stranger up into a workspace of their own; returns its id. */
async function signUp(page: Page): Promise<string> {
  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Hana Honest");
  await page.getByLabel("Work email").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Workspace name").fill(`Honest ${id}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  const { rows } = await client.query<{ id: string }>(
    `SELECT m."workspaceId" AS id FROM memberships m JOIN users u ON u.id = m."userId" WHERE u.email = $1`,
    [EMAIL],
  );
  return rows[0]!.id;
}

/**
 * 100 answers 40 days ago (previous 30-day period) and 100 yesterday (this one), all from the
 * workspace's first provider, with the mentions and positions above; rolled up as every writer
 * of analysed answers does (beacon_rollup_captures).
 */
async function construct(workspaceId: string): Promise<{ withData: string; without: string }> {
  const providers = (await client.query<{ id: string; name: string; connectionId: string; model: string }>(
    `SELECT id, name, "connectionId", model FROM provider_configs WHERE "workspaceId" = $1 ORDER BY name`,
    [workspaceId],
  )).rows;
  const provider = providers[0]!;
  const brand = (await client.query<{ id: string }>(`INSERT INTO brands ("workspaceId", name) VALUES ($1, 'Honest Co') RETURNING id`, [workspaceId])).rows[0]!.id;
  const prompt = (await client.query<{ id: string }>(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which CRM is honest about its numbers?') RETURNING id`, [workspaceId])).rows[0]!.id;
  const check = (await client.query<{ id: string }>(
    `INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", status) VALUES ($1, $2, 200, 'completed') RETURNING id`,
    [workspaceId, brand],
  )).rows[0]!.id;
  // g 1..100: the previous period, g 1..30 name the brand (odd g 3rd, even g 1st).
  // g 101..200: this period, g 101..170 name it (101..136 1st, 137..170 3rd).
  await client.query(
    `WITH c AS (
       INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", "attemptCount", model, "searchMode", "answerText", "finishedAt", "analyzedAt")
       SELECT $1, $2, $3, $4, $5, $6, g, 'succeeded', 1, 1, $7, 'auto', 'An answer.', t, t
       FROM generate_series(1, 200) g, LATERAL (SELECT now() - (CASE WHEN g <= 100 THEN 40 ELSE 1 END) * interval '1 day' AS t) at
       RETURNING id, sample
     )
     INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", name, mentioned, count, position)
     SELECT $1, c.id, 'brand', $3, 'Honest Co', m, CASE WHEN m THEN 1 ELSE 0 END,
       CASE WHEN NOT m THEN NULL WHEN c.sample <= 100 THEN (CASE WHEN c.sample % 2 = 0 THEN 1 ELSE 3 END) WHEN c.sample <= 136 THEN 1 ELSE 3 END
     FROM c, LATERAL (SELECT c.sample <= 30 OR c.sample BETWEEN 101 AND 170 AS m) named`,
    [workspaceId, check, brand, prompt, provider.id, provider.connectionId, provider.model],
  );
  // Share of voice: competitor Rival is named once in every answer, Steady in every tenth, so the
  // brand's share goes 30/140 -> 70/180 (z = 5.59, p ≈ 2e-8), Rival's 100/140 -> 100/180 (z = -4.84,
  // good news for the brand) and Steady's 10/140 -> 10/180 (z = -0.62, p = 0.536: within noise);
  // the delta method over answers, worked out by hand (Python).
  for (const [name, every] of [["Rival", 1], ["Steady", 10]] as const) {
    const competitor = (await client.query<{ id: string }>(`INSERT INTO competitors ("workspaceId", "brandId", name) VALUES ($1, $2, $3) RETURNING id`, [workspaceId, brand, name])).rows[0]!.id;
    await client.query(
      `INSERT INTO mentions ("workspaceId", "captureId", kind, "competitorId", name, mentioned, count, position)
       SELECT $1, c.id, 'competitor', $2, $3, c.sample % $4 = 0, CASE WHEN c.sample % $4 = 0 THEN 1 ELSE 0 END, CASE WHEN c.sample % $4 = 0 THEN 2 END
       FROM captures c WHERE c."checkId" = $5`,
      [workspaceId, competitor, name, every, check],
    );
  }
  await client.query(`SELECT beacon_rollup_captures(array_agg(id), 1) FROM captures WHERE "checkId" = $1`, [check]);
  return { withData: provider.name, without: providers[1]!.name };
}

const tile = (page: Page, label: string) => page.getByRole("group", { name: label, exact: true });
const colorOf = (page: Page, className: string) =>
  page.evaluate((cls) => {
    const probe = document.createElement("span");
    probe.className = cls;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, className);

describe("honest deltas", () => {
  test("colour a change beyond noise, grey one within, and dim the old numbers while a filter loads", { timeout: 120_000 }, async () => {
    const page = await newPage();
    const workspaceId = await signUp(page);
    const providers = await construct(workspaceId);
    await page.goto("/");
    await tile(page, "Visibility").getByText("n = 100 answers", { exact: true }).waitFor({ timeout: 30_000 });

    // Visibility 30 % -> 70 %: +40 points, beyond noise, in the good colour.
    const visibility = tile(page, "Visibility").getByRole("button", { name: /vs previous period/ });
    expect(await visibility.innerText()).toMatch(/\+40\.0 pts vs previous period · beyond noise \(p < 0\.001\)/);
    expect(await visibility.getAttribute("data-delta")).toBe("good");
    const green = await colorOf(page, "text-emerald-700");
    expect(await visibility.evaluate((el) => getComputedStyle(el).color)).toBe(green);

    // Average position 2.00 -> 1.97: within noise, p = 0.897, grey like the text around it.
    const position = tile(page, "Average position").getByRole("button", { name: /vs previous period/ });
    expect(await position.innerText()).toMatch(/0\.03 vs previous period · within noise \(p = 0\.897\)/);
    expect(await position.getAttribute("data-delta")).toBe("noise");
    const grey = await colorOf(page, "text-slate-500");
    expect(await position.evaluate((el) => getComputedStyle(el).color)).toBe(grey);
    expect(grey).not.toBe(green);

    // The keyboard reaches the numbers behind the verdict: both periods' n and intervals.
    await visibility.focus();
    const tip = tile(page, "Visibility").getByRole("tooltip");
    await tip.waitFor({ state: "visible" });
    const tipText = await tip.innerText();
    expect(tipText).toMatch(/Previous period: 30% \(95% interval 22–40%\), n = 100 answers/);
    expect(tipText).toMatch(/This period: 70% \(95% interval 60–78%\), n = 100 answers/);
    expect(tipText).toContain("two-proportion z-test (pooled)");
    await visibility.blur();

    // Share of voice: each entity's share over the period with its interval, its change judged
    // like the tiles': the brand's rise and Rival's fall (both good news) beyond noise, Steady's within.
    const sov = page.getByRole("list", { name: "Share of voice over the period" });
    await sov.waitFor();
    const delta = (name: string) => sov.locator(`li[data-entity="${name}"]`).getByRole("button", { name: /vs previous period/ });
    expect(await delta("Honest Co").innerText()).toMatch(/\+17\.5 pts vs previous period · beyond noise \(p < 0\.001\)/);
    expect(await delta("Honest Co").getAttribute("data-delta")).toBe("good");
    expect(await delta("Rival").getAttribute("data-delta")).toBe("good");
    expect(await delta("Steady").innerText()).toMatch(/within noise \(p = 0\.536\)/);
    expect(await delta("Steady").evaluate((el) => getComputedStyle(el).color)).toBe(grey);
    expect(await sov.locator('li[data-entity="Steady"]').innerText()).toMatch(/5\.6%\s*\d/);

    // The provider filter marks the providers without answers in the period.
    await page.locator("#analytics-providers-label + details > summary").click();
    const options = page.getByRole("group", { name: "Providers" });
    expect(await options.getByText(providers.without, { exact: true }).locator("..").innerText()).toMatch(/no data/);
    expect(await options.getByText(providers.withData, { exact: true }).locator("..").innerText()).not.toMatch(/no data/);

    // Ticking a provider: its headline numbers are held at the route until the test lets them go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested!: () => void;
    const asked = new Promise<void>((resolve) => (requested = resolve));
    await page.route(/\/api\/analytics\/kpis\?/, async (route: Route) => {
      if (new URL(route.request().url()).searchParams.has("providers")) {
        requested();
        await held;
      }
      await route.continue();
    });
    await options.getByRole("checkbox", { name: providers.withData }).check();
    await asked;
    const tiles = page.getByTestId("kpi-tiles");
    await expect.poll(() => tiles.getAttribute("aria-busy")).toBe("true");
    await tiles.getByRole("progressbar", { name: "Loading the numbers for the new filters" }).waitFor();
    // The old numbers stay, visibly dimmed (the fade takes a moment: poll, no sleep).
    await expect.poll(() => tiles.locator(":scope > .grid").evaluate((el) => Number(getComputedStyle(el).opacity))).toBeLessThanOrEqual(0.5);
    expect(await tile(page, "Visibility").innerText()).toContain("n = 100 answers");

    release();
    await expect.poll(() => tiles.getAttribute("aria-busy")).toBeNull();
    expect(await tiles.getByRole("progressbar").count()).toBe(0);
    await expect.poll(() => tiles.locator(":scope > .grid").evaluate((el) => Number(getComputedStyle(el).opacity))).toBe(1);
    expect(new URL(page.url()).searchParams.get("providers")).toBeTruthy();
  });
});
