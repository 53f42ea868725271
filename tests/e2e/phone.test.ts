// Beacon on a phone (issue 19, items 1 and 11): at 390x844 every page of the navigation, a check
// and a capture fit the screen: the main content is at least 340 px wide, no visible element
// reaches past the right edge unless it sits inside a scroll area that itself fits (a
// `scrollWidth` check alone passes while content is clipped inside a scroller), and the document
// does not scroll sideways. The navigation is a drawer there, driven by the keyboard. At 1440 px
// the same pages fit beside the sidebar. Dark mode follows the system until the user chooses,
// survives a reload without a light flash, and printing stays light.
// E2E_SCREENSHOTS=<folder> also saves every page at both sizes in light and dark.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

const SHOTS = process.env.E2E_SCREENSHOTS;

/** Waits until nothing in the main content is loading. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"][aria-label="Loading"]'), null, { timeout: 30_000 });
}

type Fit = { mainContentWidth: number; documentOverflow: number; outside: { what: string }[] };

/** How the page fits the viewport (see the header comment). */
function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const edge = document.documentElement.clientWidth + 0.5;
    const main = document.querySelector("main")!;
    const style = getComputedStyle(main);
    const mainContentWidth = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const documentOverflow = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} class="${(el.getAttribute("class") ?? "").slice(0, 60)}"> "${text}" right=${Math.round(el.getBoundingClientRect().right)}`;
    };
    /** Whether the element is seen whole or through a scroll area that fits the screen. */
    const reachable = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (/(auto|scroll)/.test(getComputedStyle(up).overflowX)) return up.getBoundingClientRect().right <= edge;
      }
      return false;
    };
    const outside: Fit["outside"] = [];
    const offenders = new Set<Element>();
    for (const el of document.body.querySelectorAll("*")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= edge) continue;
      if (getComputedStyle(el).visibility === "hidden" || reachable(el)) continue;
      offenders.add(el);
      // Report the outermost offender only: its children are outside because it is.
      if ([...offenders].some((o) => o !== el && o.contains(el))) continue;
      outside.push({ what: describe(el) });
    }
    return { mainContentWidth, documentOverflow, outside };
  });
}

async function expectToFit(page: Page, label: string): Promise<void> {
  const fit = await measure(page);
  // Soft: one run reports every page that does not fit, not only the first.
  expect.soft(fit.mainContentWidth, `${label}: main content width`).toBeGreaterThanOrEqual(340);
  expect.soft(fit.outside.map((o) => o.what), `${label}: elements past the right edge`).toEqual([]);
  expect.soft(fit.documentOverflow, `${label}: the document scrolls sideways by`).toBeLessThanOrEqual(0);
}

async function screenshots(page: Page, label: string, size: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const name = label.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
  // Charts draw as they are scrolled to (components/charts/responsive-chart.tsx): scroll through
  // the page as a reader would, so the full-page picture shows them drawn.
  const waiting = page.locator('main [data-chart="waiting"]:visible');
  await expect
    .poll(
      async () => {
        // One at a time: a chart that draws changes the page's height under the next.
        await waiting.first().scrollIntoViewIfNeeded({ timeout: 1_000 }).catch(() => {});
        return waiting.evaluateAll((charts) => charts.map((c) => c.closest('[role="region"]')?.querySelector("h2")?.textContent));
      },
      { message: `${label}: charts still waiting`, timeout: 15_000 },
    )
    .toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Buttons fade their colours (transition-colors): shoot once they have.
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}

const menuButton = (page: Page) => page.getByRole("button", { name: "Menu", exact: true });
const drawer = (page: Page) => page.getByRole("dialog", { name: "Navigation" });

/** The pages of the navigation (every section), read from the drawer at phone size. */
async function navigationPages(page: Page): Promise<{ label: string; href: string }[]> {
  await menuButton(page).click();
  const links = drawer(page).getByRole("navigation").getByRole("link");
  const pages = await links.evaluateAll((as) => as.map((a) => ({ label: a.textContent!.trim(), href: new URL((a as HTMLAnchorElement).href).pathname })));
  await page.keyboard.press("Escape");
  return pages;
}

async function signedIn(viewport: { width: number; height: number }): Promise<Page> {
  const page = await newPage({ viewport });
  await login(page, DEMO_USER.email, DEMO_USER.password);
  return page;
}

/**
 * Every page the test visits: the navigation (read from the drawer, so at phone size), the alert
 * tabs, a new check, a check and one of its captures.
 */
async function allPages(page: Page): Promise<{ label: string; href: string }[]> {
  const pages = await navigationPages(page);
  expect(pages.map((p) => p.label)).toEqual(expect.arrayContaining(["Overview", "Checks", "Prompts", "Members", "Jobs", "Instance"]));
  return [...pages, { label: "Alert channels", href: "/alerts/channels" }, { label: "Delivery log", href: "/alerts/deliveries" }, { label: "New check", href: "/checks/new" }];
}

async function visitEverything(page: Page, pages: { label: string; href: string }[], size: string): Promise<void> {
  for (const { label, href } of pages) {
    await page.goto(href);
    await settled(page);
    await expectToFit(page, `${label} at ${size}`);
    await screenshots(page, label, size);
  }

  await page.goto("/checks");
  await settled(page);
  await page.locator('main a[href^="/checks/"]:not([href="/checks/new"])').first().click();
  await page.waitForURL(/\/checks\/[0-9a-f-]{36}$/);
  const cell = page.getByRole("main").getByRole("button", { name: /^Sample \d/ }).first();
  await cell.waitFor();
  await settled(page);
  await expectToFit(page, `Check at ${size}`);
  // The grid's providers lie past a phone's edge, which a fade shows; beside the sidebar they fit.
  await expect.poll(() => page.locator("main [data-more-right]").count(), { message: `the check grid's fade at ${size}` }).toBe(size === "390" ? 1 : 0);
  await screenshots(page, "Check", size);

  await cell.click();
  const capture = page.getByRole("dialog");
  await capture.getByRole("heading", { name: /sample \d/ }).waitFor();
  await settled(page);
  await expectToFit(page, `Capture at ${size}`);
  await screenshots(page, "Capture", size);
}

describe("phone and desktop layouts", () => {
  test("every page fits a 390 px phone", { timeout: 240_000 }, async () => {
    const page = await signedIn(PHONE);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    await visitEverything(page, await allPages(page), "390");
  });

  test("every page fits beside the sidebar at 1440 px", { timeout: 240_000 }, async () => {
    const page = await signedIn(DESKTOP);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
    expect(await menuButton(page).isVisible()).toBe(false);
    // The drawer's list is the sidebar's; read it at phone size, then check the wide layout.
    await page.setViewportSize(PHONE);
    const pages = await allPages(page);
    await page.setViewportSize(DESKTOP);
    await visitEverything(page, pages, "1440");
  });

  test("a table wider than a phone fades at the right edge until it is scrolled to its end", async () => {
    const page = await signedIn(PHONE);
    await page.goto("/analytics/sources");
    await settled(page);
    const table = page.getByRole("table", { name: "Gap sources" });
    await table.waitFor();
    // The box around the table's scroller carries the fade's state.
    const box = table.locator("xpath=../..");
    const scroller = table.locator("xpath=..");
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth), "the gap sources table is wider than the phone").toBe(true);
    await expect.poll(() => box.getAttribute("data-more-right")).toBe("");
    expect(await box.locator("[aria-hidden].bg-gradient-to-l").count()).toBe(1);
    await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => box.getAttribute("data-more-right")).toBeNull();
    expect(await box.locator("[aria-hidden].bg-gradient-to-l").count()).toBe(0);
    await scroller.evaluate((el) => el.scrollTo({ left: 0 }));
    await expect.poll(() => box.getAttribute("data-more-right")).toBe("");

    // At 1440 px the same table fits: no fade.
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => box.getAttribute("data-more-right")).toBeNull();
  });

  test("the drawer opens, traps focus, closes by Escape and on navigation", async () => {
    const page = await signedIn(PHONE);
    const button = menuButton(page);
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);

    await button.focus();
    await page.keyboard.press("Enter");
    await drawer(page).waitFor();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    const main = drawer(page).getByRole("navigation", { name: "Main" });
    const operations = drawer(page).getByRole("navigation", { name: "Operations" });
    // Operator pages have their own section, not the marketer's menu.
    expect(await main.getByRole("link").allInnerTexts()).not.toEqual(expect.arrayContaining(["Jobs"]));
    expect(await main.getByRole("link").allInnerTexts()).not.toEqual(expect.arrayContaining(["Instance"]));
    expect(await operations.getByRole("link").allInnerTexts()).toEqual(["Jobs", "Instance"]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "drawer-390-light.png") });
    for (const link of await drawer(page).getByRole("link").all()) {
      expect((await link.boundingBox())!.height, `${await link.innerText()} tap target`).toBeGreaterThanOrEqual(44);
    }

    // Tab goes round inside the drawer: more presses than it has controls never leave it.
    const controls = await drawer(page).locator("a, button, select, input").count();
    for (let i = 0; i <= controls; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[aria-label="Navigation"]')), `focus after ${i + 1} Tab presses`).toBe(true);
    }

    await page.keyboard.press("Escape");
    await drawer(page).waitFor({ state: "hidden" });
    // The browser closes the dialog itself on Escape; the button's state follows in React's next render.
    await expect.poll(() => button.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Menu");

    await page.keyboard.press("Enter");
    await main.getByRole("link", { name: "Prompts" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/prompts");
    await drawer(page).waitFor({ state: "hidden" });
    await expect.poll(() => button.getAttribute("aria-expanded")).toBe("false");
  });

  test("dark mode follows the system, can be chosen, persists without a flash, and prints light", async () => {
    const page = await signedIn(DESKTOP);
    await page.emulateMedia({ colorScheme: "light" });
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    /** Relative luminance (0..1) of the body's background. */
    const bodyLuminance = () =>
      page.evaluate(() => {
        const canvas = document.createElement("canvas").getContext("2d")!;
        canvas.fillStyle = getComputedStyle(document.body).backgroundColor;
        canvas.fillRect(0, 0, 1, 1);
        const [r, g, b] = [...canvas.getImageData(0, 0, 1, 1).data].map((v) => v / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      });
    expect(await isDark()).toBe(false);
    expect(await bodyLuminance()).toBeGreaterThan(0.8);

    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(isDark).toBe(true);

    const theme = page.getByRole("radiogroup", { name: "Theme" });
    await theme.getByRole("radio", { name: "Light" }).check();
    expect(await isDark()).toBe(false);
    await theme.getByRole("radio", { name: "Dark" }).check();
    await page.emulateMedia({ colorScheme: "light" });
    expect(await isDark()).toBe(true);
    expect(await bodyLuminance()).toBeLessThan(0.05);

    // The choice is applied before the body is parsed: no light flash on load.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        (window as unknown as { darkAtBody: boolean }).darkAtBody = document.documentElement.classList.contains("dark");
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { darkAtBody?: boolean }).darkAtBody)).toBe(true);
    await expect.poll(() => theme.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true);

    await page.emulateMedia({ media: "print" });
    expect(await bodyLuminance()).toBeGreaterThan(0.8);
  });
});
