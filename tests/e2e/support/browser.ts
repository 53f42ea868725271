// Chromium driven by playwright-core (no downloaded browsers: the system's /usr/bin/chromium,
// or CHROMIUM_PATH). One browser per test file; every page gets its own context, so cookies
// never leak between tests. A failing test leaves a screenshot in test-results/e2e/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, inject, onTestFinished } from "vitest";

export const DEMO_USER = { email: "demo@beacon.local", password: "beacon-demo" } as const;

const RESULTS = fileURLToPath(new URL("../../../test-results/e2e", import.meta.url));

// PLATFORM.md "Browser tests". Playwright adds --headless (headless: true) and a fresh
// --user-data-dir of its own for every launch, removed on close; it refuses one in `args`.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const baseUrl = () => inject("e2eBaseUrl");

let browser: Browser | undefined;

/**
 * Call once at the top of a test file: launches Chromium before its tests and closes it after.
 * `args` adds flags (tests/e2e/visits.test.ts maps a site's host name to 127.0.0.1).
 */
export function setupBrowser({ args = [] }: { args?: string[] } = {}): void {
  beforeAll(async () => {
    const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
    if (!fs.existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
    browser = await chromium.launch({ executablePath, headless: true, args: [...FLAGS, ...args] });
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
}

const fileName = (name: string) => name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "").slice(0, 120);

/** A page in a fresh browser context (signed out), closed when the test ends; 1280x900 unless told. */
export async function newPage({ viewport = { width: 1280, height: 900 } }: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  if (!browser) throw new Error("setupBrowser() must be called in the test file first");
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  const page = await context.newPage();
  // onTestFinished runs before onTestFailed, so the screenshot is taken here, before closing.
  onTestFinished(async ({ task }) => {
    if (task.result?.state === "fail") {
      fs.mkdirSync(RESULTS, { recursive: true });
      const file = path.join(RESULTS, `${fileName(task.fullName)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log(`[e2e] screenshot of the failed test: ${path.relative(process.cwd(), file)} (page ${page.url()})`);
    }
    await context.close();
  });
  return page;
}

/** Signs in through the login form and waits until the dashboard has loaded. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  // Attached, not visible: on a phone the navigation waits in the closed drawer.
  await page.getByRole("navigation", { name: "Main", includeHidden: true }).waitFor({ state: "attached" });
}

/**
 * A full-page picture in light and then dark (`<file>-light.png`, `<file>-dark.png`), each once
 * the colours have faded (transition-colors: they start a frame after the scheme changes); the
 * page is left in the system's scheme.
 */
export async function screenshotBothSchemes(page: Page, file: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
    await page.screenshot({ path: `${file}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}
