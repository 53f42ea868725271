// An admin sends alerts to a webhook and follows them to the receiver and into the delivery log.
// The receiver is a real HTTP server on 127.0.0.1 (the e2e app runs with ALERTS_ALLOW_PRIVATE_URLS,
// tests/e2e/support/global-setup.ts); the worker posts to it and the test checks each request's
// Standard Webhooks signature with the secret the page showed once. The rule is one that fires on
// the demo history with certainty: the simulator names untracked CRMs (Attio, Folk, ...) in about
// 30 % of answers, and the demo seed has 90 days of daily checks, so the last 7 days hold hundreds.
// The rule and the channel are deleted at the end (with them their firings and delivery log).
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";

setupBrowser();

type Received = { headers: IncomingHttpHeaders; body: string; json: { type?: string; data?: { title?: string; channel?: { name?: string } } } };

/** Collects the webhooks it receives; `waitFor` resolves once one matching `predicate` has come in. */
class Receiver {
  readonly requests: Received[] = [];
  private waiters: { predicate: (r: Received[]) => boolean; resolve: () => void }[] = [];
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: Received["json"] = {};
      try {
        json = JSON.parse(body) as Received["json"];
      } catch {
        // Kept with an empty json: the assertions on its type then fail with the body in view.
      }
      this.requests.push({ headers: req.headers, body, json });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      this.waiters = this.waiters.filter((w) => (w.predicate(this.requests) ? (w.resolve(), false) : true));
    });
  });

  async start(): Promise<string> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/beacon`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  waitFor(predicate: (r: Received[]) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    if (predicate(this.requests)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no webhook for ${what} within ${timeoutMs / 1000} s (received: ${this.requests.map((r) => r.body).join("\n")})`)), timeoutMs);
      this.waiters.push({ predicate, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

const receiver = new Receiver();
let receiverUrl = "";
beforeAll(async () => {
  receiverUrl = await receiver.start();
});
afterAll(() => receiver.stop());

/** Throws unless the request carries a valid Standard Webhooks signature made with `secret`. */
function verified(request: Received, secret: string): Received["json"] {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Received["json"];
}

async function openDeliveryLog(page: Page): Promise<Locator> {
  await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Delivery log" }).click();
  await page.waitForURL((url) => url.pathname === "/alerts/deliveries");
  const log = page.getByRole("table", { name: "Delivery log" });
  await log.waitFor();
  return log;
}

/** A delivery's own row in the log (its expanded message is a row of its own, without the button). */
const deliveryRow = (page: Page, log: Locator, channel: string, subject: string) =>
  log
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: `Message sent: ${subject}`, exact: true }) })
    .filter({ hasText: channel });

describe("alerts end to end", () => {
  test("a rule fires on the demo data, its signed webhook reaches the receiver, and the delivery log shows it and a test as delivered", async () => {
    const page = await newPage();
    await login(page, DEMO_USER.email, DEMO_USER.password);
    const stamp = Date.now();
    const channelName = `E2E receiver ${stamp}`;
    const ruleName = `E2E untracked ${stamp}`;

    // 1. A webhook channel to the local receiver; its signing secret is shown once.
    await page.goto("/alerts/channels");
    await page.getByRole("heading", { level: 1, name: "Alert channels" }).waitFor();
    await page.getByRole("button", { name: "New channel" }).click();
    const channelDialog = page.getByRole("dialog", { name: "New channel" });
    await channelDialog.waitFor();
    await channelDialog.getByLabel("Kind", { exact: true }).selectOption("webhook");
    await channelDialog.getByLabel("Name", { exact: true }).fill(channelName);
    await channelDialog.getByLabel("Webhook URL", { exact: true }).fill(receiverUrl);
    await channelDialog.getByRole("button", { name: "Create channel" }).click();
    const secretDialog = page.getByRole("dialog", { name: `Signing secret for ${channelName}` });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole("button", { name: "Done" }).click();
    await secretDialog.waitFor({ state: "detached" });
    const channelRow = page.getByRole("table", { name: "Alert channels" }).getByRole("row").filter({ hasText: channelName });
    await channelRow.getByText(receiverUrl, { exact: true }).waitFor();

    // 2. A rule that fires on the demo history, sending to that channel; saving evaluates it.
    await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Rules" }).click();
    await page.waitForURL((url) => url.pathname === "/alerts");
    await page.getByRole("heading", { level: 1, name: "Alerts" }).waitFor();
    await page.getByRole("button", { name: "New rule" }).first().click();
    const ruleDialog = page.getByRole("dialog", { name: "New alert rule" });
    await ruleDialog.waitFor();
    await ruleDialog.getByLabel("Name", { exact: true }).fill(ruleName);
    await ruleDialog.getByLabel("Alert when", { exact: true }).selectOption({ label: "A brand not yet tracked is named often" });
    await ruleDialog.getByLabel("Brand", { exact: true }).selectOption({ label: "Lumen CRM" });
    await ruleDialog.getByLabel("Period (days)", { exact: true }).fill("7");
    await ruleDialog.getByLabel("Share of answers (%)", { exact: true }).fill("1");
    await ruleDialog.getByRole("checkbox", { name: `${channelName} (webhook)` }).check();
    await ruleDialog.getByRole("button", { name: "Create rule" }).click();
    await ruleDialog.waitFor({ state: "detached" });

    const ruleRow = page.getByRole("table", { name: "Alert rules" }).getByRole("row").filter({ hasText: ruleName });
    await ruleRow.waitFor();
    expect(await ruleRow.textContent()).toContain("Untracked names in over 1 % of Lumen CRM's answers; last 7 days");
    // The rules list polls while the evaluation it asked for has not run.
    await ruleRow.getByText("fired", { exact: true }).waitFor({ timeout: 60_000 });
    expect(await ruleRow.textContent()).toMatch(/is named in .+ of answers and is not tracked/);

    // The firings list polls for half a minute after saving; a reload shows it regardless.
    await page.reload();
    const firings = page.getByRole("region", { name: "Firings" }).getByRole("listitem").filter({ hasText: ruleName });
    await firings.first().waitFor();
    const titles: string[] = [];
    for (const firing of await firings.all()) {
      const title = (await firing.getByText(/ is named in .+ of answers and is not tracked$/).innerText()).trim();
      const name = title.slice(0, title.indexOf(" is named in "));
      expect(title).toMatch(/^.+ is named in \d+(\.\d+)? % of answers and is not tracked$/);
      // The demo brand and its competitors are tracked: only other names can fire.
      expect(["Lumen CRM", "HubSpot", "Salesforce", "Pipedrive"]).not.toContain(name);
      await firing.getByRole("button", { name: `Track ${name}`, exact: true }).waitFor();
      titles.push(title);
    }
    expect(titles.length).toBeGreaterThan(0);

    // 3. One signed alert.fired webhook per firing.
    const firedTitles = (r: Received[]) => new Set(r.filter((x) => x.json.type === "alert.fired").map((x) => x.json.data?.title));
    await receiver.waitFor((r) => titles.every((t) => firedTitles(r).has(t)), `the firings ${titles.join(", ")}`);
    const fired = receiver.requests.filter((r) => r.json.type === "alert.fired");
    // Exactly once each: a delivery that succeeded is not sent again.
    for (const title of titles) expect(fired.filter((r) => r.json.data?.title === title)).toHaveLength(1);
    for (const request of fired) {
      const payload = verified(request, secret);
      expect(payload.type).toBe("alert.fired");
      expect(titles).toContain(payload.data?.title);
    }
    // A signature made with another secret does not pass.
    expect(() => verified(fired[0]!, `whsec_${Buffer.from("not the channel's secret, 32 b!").toString("base64")}`)).toThrow();

    // 4. The delivery log: each firing delivered to the channel on the first attempt, answered 200.
    let log = await openDeliveryLog(page);
    const first = fired[0]!;
    const firstTitle = first.json.data!.title!;
    for (const title of titles) {
      const row = deliveryRow(page, log, channelName, title);
      await row.getByText("delivered", { exact: true }).waitFor({ timeout: 30_000 });
      const cells = await row.getByRole("cell").allInnerTexts();
      // When, channel, kind, subject, status, attempts, next attempt, response, last error.
      expect(cells.slice(1, 9).map((c) => c.trim())).toEqual([channelName, "Alert", title, "delivered", "1", "—", "200", ""]);
    }
    const show = deliveryRow(page, log, channelName, firstTitle).getByRole("button", { name: `Message sent: ${firstTitle}`, exact: true });
    // By keyboard: a new delivery on top of the refetched log can move this row under a click.
    await show.focus();
    await page.keyboard.press("Enter");
    const sent = page.locator(`#${await show.getAttribute("aria-controls")}`);
    await sent.waitFor();
    expect(await show.getAttribute("aria-expanded")).toBe("true");
    const sentText = (await sent.textContent()) ?? "";
    // The log shows the body the receiver got, and the webhook-id it was sent under.
    expect(sentText).toContain(`webhook-id ${first.headers["webhook-id"]}`);
    expect(sentText).toContain('"type": "alert.fired"');
    expect(sentText).toContain(`"title": ${JSON.stringify(firstTitle)}`);
    expect(sentText).toContain(`"name": ${JSON.stringify(ruleName)}`);

    // 5. "Send test" on the channel: a signed alert.test webhook and a delivered Test row.
    await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Channels" }).click();
    await page.waitForURL((url) => url.pathname === "/alerts/channels");
    await page.getByRole("button", { name: `Send a test to ${channelName}`, exact: true }).click();
    await page.getByText("Test message queued").waitFor();
    await receiver.waitFor((r) => r.some((x) => x.json.type === "alert.test"), "the test message");
    const testRequests = receiver.requests.filter((r) => r.json.type === "alert.test");
    expect(testRequests).toHaveLength(1);
    expect(verified(testRequests[0]!, secret).data?.channel?.name).toBe(channelName);
    log = await openDeliveryLog(page);
    const testRow = deliveryRow(page, log, channelName, "Test message from Beacon");
    await testRow.getByText("delivered", { exact: true }).waitFor({ timeout: 30_000 });
    const testCells = await testRow.getByRole("cell").allInnerTexts();
    expect(testCells.slice(1, 9).map((c) => c.trim())).toEqual([channelName, "Test", "Test message from Beacon", "delivered", "1", "—", "200", ""]);

    // 6. Leave the demo workspace as it was: the rule (and its firings), then the channel (and its log).
    await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Rules" }).click();
    await page.waitForURL((url) => url.pathname === "/alerts");
    await page.getByRole("button", { name: `Delete ${ruleName}`, exact: true }).click();
    // Deleting asks first, in the product's own dialog.
    await page.getByRole("dialog", { name: "Delete alert rule?" }).getByRole("button", { name: "Delete", exact: true }).click();
    await ruleRow.waitFor({ state: "detached" });
    await page.getByRole("region", { name: "Firings" }).getByRole("listitem").filter({ hasText: ruleName }).first().waitFor({ state: "detached" });
    await page.getByRole("navigation", { name: "Alerts" }).getByRole("link", { name: "Channels" }).click();
    await page.waitForURL((url) => url.pathname === "/alerts/channels");
    await page.getByRole("button", { name: `Delete ${channelName}`, exact: true }).click();
    await page.getByRole("dialog", { name: "Delete channel?" }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("button", { name: `Delete ${channelName}`, exact: true }).waitFor({ state: "detached" });
    // With its channel gone, its deliveries are gone from the log too.
    await page.goto("/alerts/deliveries");
    await page.getByRole("table", { name: "Delivery log" }).or(page.getByText("Nothing sent yet")).waitFor();
    expect(await page.getByText(channelName).count()).toBe(0);
  });
});
