// What a production server (`npm start`, here with BEACON_METRICS_TOKEN set by the setup) shows
// people who are not its operators: security headers on every response, a robots.txt that keeps
// search engines out, /api/metrics only for the token's bearer, /api/health without details. And
// the app still works under its Content Security Policy: signing in and the main pages raise no
// violation in Chromium.
import type { Page } from "playwright-core";
import { describe, expect, inject, test } from "vitest";
import { DEMO_USER, baseUrl, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

const get = (path: string, init: RequestInit = {}) => fetch(`${baseUrl()}${path}`, { redirect: "manual", signal: AbortSignal.timeout(15_000), ...init });

describe("production defaults", () => {
  test("every response carries the security headers: pages, API routes, static files", async () => {
    for (const path of ["/login", "/api/health", "/api/v1/checks", "/robots.txt", "/favicon.ico", "/icon.svg"]) {
      const response = await get(path);
      expect(response.status, path).toBeLessThan(500);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).not.toContain("unsafe-eval");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("permissions-policy"), path).toContain("camera=()");
      expect(response.headers.get("x-powered-by"), path).toBeNull();
    }
  });

  test("robots.txt keeps every crawler out, and the icon is served", async () => {
    const robots = await get("/robots.txt");
    expect(robots.status).toBe(200);
    expect(await robots.text()).toMatch(/User-agent: \*\s+Disallow: \/\s*$/);
    const icon = await get("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/image\//);
  });

  test("/api/metrics answers only the metrics token's bearer", async () => {
    const token = inject("e2eMetricsToken");
    expect((await get("/api/metrics")).status).toBe(401);
    expect((await get("/api/metrics", { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    const scraped = await get("/api/metrics", { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^beacon_jobs_created_total \d+$/m);
  });

  test("/api/health tells outsiders only the status; the token's bearer gets the details", async () => {
    const outsider = await get("/api/health");
    expect(outsider.status).toBe(200);
    expect(await outsider.json()).toEqual({ status: "ok" });
    const operator = await get("/api/health", { headers: { authorization: `Bearer ${inject("e2eMetricsToken")}` } });
    const details = (await operator.json()) as { status: string; workers: { alive: number; list: { hostname: string; pid: number }[] } };
    expect(details.status).toBe("ok");
    expect(details.workers.alive).toBeGreaterThan(0);
    expect(details.workers.list[0]).toHaveProperty("pid");
  });

  test("signing in and the main pages work under the CSP without a single violation", async () => {
    const page = await newPage();
    const violations = await recordCspViolations(page);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto("/login");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    // The Overview draws its charts (recharts: inline styles) from the demo history.
    await page.locator("main .recharts-surface").first().waitFor({ timeout: 30_000 });
    for (const [path, heading] of [
      ["/checks", "Checks"],
      ["/settings", "Settings"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.getByRole("navigation", { name: "Main" }).waitFor();
    }
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);

    // The recorder does see a violation: an image from another origin is refused.
    await page.evaluate(() => {
      new Image().src = "http://beacon-csp-probe.invalid/pixel.png";
    });
    await expect.poll(() => violations.length, { timeout: 5_000 }).toBe(1);
    expect(violations[0]).toMatch(/^img-src/);
  });
});

/** Every securitypolicyviolation event of every document the page loads, as "directive blocked-uri". */
async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("beaconReportCspViolation", (line: string) => violations.push(line));
  // Injected by the browser's debugging protocol, which the page's own CSP does not govern.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { beaconReportCspViolation: (line: string) => void }).beaconReportCspViolation;
      report(`${event.effectiveDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  return violations;
}
