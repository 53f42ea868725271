// Chromium for the page benchmark, launched as the browser tests launch it (PLATFORM.md "Browser
// tests": playwright-core, the system's /usr/bin/chromium or CHROMIUM_PATH, no downloaded
// browsers). It runs as a Playwright browser server so that its process (a group of its own, with
// the renderers) is one of the benchmark's children: killed with them when the benchmark exits.
import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { BenchChild } from "./processes";

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export type BenchBrowser = { browser: Browser; child: BenchChild; stop: () => Promise<void> };

export async function startChromium(): Promise<BenchBrowser> {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!fs.existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  // Headless with a fresh profile (Playwright makes and removes it); the benchmark's own signal handlers clean up.
  const server = await chromium.launchServer({ executablePath, headless: true, args: FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
  const child = new BenchChild("chromium", server.process());
  try {
    const browser = await chromium.connect(server.wsEndpoint());
    return {
      browser,
      child,
      stop: async () => {
        await browser.close().catch(() => {});
        await server.close().catch(() => {});
        await child.stop(5_000);
      },
    };
  } catch (error) {
    await child.stop(5_000);
    throw error;
  }
}
