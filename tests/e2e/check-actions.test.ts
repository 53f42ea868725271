// Polls never queue behind actions (issue 20 item 4): Next.js runs a browser's server actions one
// at a time, so a retry that took seconds held the check page's next poll. On a 2,000-capture
// check that is still running (its polls every second), the retry of its (500 or more) failed
// captures and then its cancel are clicked; for each, the action answers and the next poll has answered
// within one poll interval of the click's request, timed from the requests Chromium sent.
// The check runs in a workspace of its own: its 200 prompts and their answers must not reach the
// demo workspace that the other browser tests count (the demo user only tunes the simulators).
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { DEMO_USER, login, newPage, setupBrowser } from "./support/browser";
import { progressBar, withConnection } from "./support/checks";

setupBrowser();

const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
beforeAll(() => client.connect());
afterAll(() => client.end());

const POLL_INTERVAL_MS = 1000;
const PROMPTS = 200;
const SAMPLES = 5; // 200 prompts × 2 providers × 5 samples = 2,000 captures

/** Signs a stranger up into a workspace of their own, with a brand (set up directly: not under test). */
async function signUpWithBrand(page: Page): Promise<void> {
  const id = randomBytes(4).toString("hex");
  const email = `actions-${id}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Your name").fill("Ada Actions");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("check actions passphrase");
  await page.getByLabel("Workspace name").fill(`Actions ${id}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await client.query(
    `INSERT INTO brands ("workspaceId", name)
     SELECT m."workspaceId", 'Actions Co' FROM memberships m JOIN users u ON u.id = m."userId" WHERE u.email = $1`,
    [email],
  );
}

/** A write key made on the Settings page, as a user would. */
async function createApiKey(page: Page): Promise<string> {
  await page.goto("/settings?tab=api-keys");
  await page.getByLabel("New key name").fill(`check actions ${Date.now()}`);
  await page.getByLabel("Scope").selectOption("write");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByLabel("New API key");
  await key.waitFor();
  return key.inputValue();
}

type Call = { poll: boolean; sentAt: number; answeredAt?: number };

/** Every server action the page sends, with when it went out and when its answer came back. */
function recordActions(page: Page): Call[] {
  const calls: Call[] = [];
  const byRequest = new Map<Request, Call>();
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.headers()["next-action"]) return;
    const call = { poll: /"page":\d+/.test(request.postData() ?? ""), sentAt: Date.now() };
    calls.push(call);
    byRequest.set(request, call);
  });
  // An action's answer is sent once the action has run (its result leads the stream): its
  // response is when it answered. (Chromium does not always report the end of a streamed body.)
  page.on("response", (response) => {
    const call = byRequest.get(response.request());
    if (call) call.answeredAt ??= Date.now();
  });
  return calls;
}

/**
 * Clicks `button` (which sends one action) and returns how long that action took and how long
 * after it was sent the next poll had answered.
 */
async function clickAndTime(calls: Call[], click: () => Promise<void>) {
  const before = calls.length;
  await click();
  await expect.poll(() => calls.slice(before).find((c) => !c.poll)?.answeredAt, { timeout: 30_000 }).toBeDefined();
  const action = calls.slice(before).find((c) => !c.poll)!;
  await expect.poll(() => calls.find((c) => c.poll && c.sentAt >= action.sentAt && c.answeredAt)?.answeredAt, { timeout: 30_000 }).toBeDefined();
  const poll = calls.find((c) => c.poll && c.sentAt >= action.sentAt && c.answeredAt)!;
  const around = calls.filter((c) => c.sentAt >= action.sentAt - 3000 && c.sentAt <= poll.answeredAt!);
  console.log(`[e2e] requests around it (ms from the action's): ${around.map((c) => `${c.poll ? "poll" : "action"} ${c.sentAt - action.sentAt}..${(c.answeredAt ?? NaN) - action.sentAt}`).join(", ")}`);
  return { actionMs: action.answeredAt! - action.sentAt, nextPollMs: poll.answeredAt! - action.sentAt };
}

describe("the check page's actions on a 2,000-capture check", () => {
  test("answer at once, and the next poll comes within one interval", { timeout: 300_000 }, async () => {
    const admin = await newPage();
    await login(admin, DEMO_USER.email, DEMO_USER.password);
    const page = await newPage();
    await signUpWithBrand(page);
    const key = await createApiKey(page);
    // ChatGPT fails every call at once, 50 at a time; Claude answers one at a time, so the check runs on.
    await withConnection(admin, "Simulated ChatGPT", { "Transient errors (%)": "0", "Permanent errors (%)": "100", "Max concurrency": "50" }, async () => {
      await withConnection(admin, "Simulated Claude", { "Max concurrency": "1" }, async () => {
        const texts = Array.from({ length: PROMPTS }, (_, i) => ({ text: `Check actions question ${String(i + 1).padStart(3, "0")}: which CRM suits a team of ${i + 3}?` }));
        const started = await page.request.post("/api/v1/checks", {
          headers: { authorization: `Bearer ${key}`, "idempotency-key": `e2e-actions-${Date.now()}` },
          data: { prompts: texts, providers: ["ChatGPT", "Claude"], samples: SAMPLES },
        });
        expect(started.status(), await started.text()).toBe(202);
        const checkId = ((await started.json()) as { check: { id: string } }).check.id;
        const calls = recordActions(page);
        try {
          await page.goto(`/checks/${checkId}`);
          await progressBar(page).waitFor();
          // A bulk retry: wait until at least 500 of ChatGPT's captures have failed.
          const retryButton = page.getByRole("button", { name: /^Retry \d+ failed\/cancelled…$/ });
          const retryable = async () => Number(/\d+/.exec((await retryButton.textContent({ timeout: 1000 }).catch(() => null)) ?? "")?.[0] ?? 0);
          await expect.poll(retryable, { timeout: 180_000, interval: 1000 }).toBeGreaterThanOrEqual(500);
          // Polls are running: the check is unfinished.
          await expect.poll(() => calls.filter((c) => c.poll && c.answeredAt).length).toBeGreaterThanOrEqual(3);

          await retryButton.click();
          const confirm = page.getByRole("dialog", { name: "Retry failed and cancelled captures?" });
          const confirmButton = confirm.getByRole("button", { name: /^Retry \d+ captures$/ });
          await confirmButton.waitFor({ timeout: 30_000 });
          const captures = Number(/\d+/.exec((await confirmButton.textContent()) ?? "")![0]);
          const retry = await clickAndTime(calls, () => confirmButton.click());
          console.log(`[e2e] retry of ${captures} captures: action ${retry.actionMs} ms, next poll answered ${retry.nextPollMs} ms after it was sent`);
          expect(retry.nextPollMs).toBeLessThanOrEqual(POLL_INTERVAL_MS);
          // The worker ran it; the poll brought its outcome.
          await page.getByText(/^\d+ capture\(s\) queued again/).waitFor({ timeout: 60_000 });

          await page.getByRole("button", { name: "Cancel check" }).click();
          const cancelDialog = page.getByRole("dialog", { name: "Cancel this check?" });
          const cancel = await clickAndTime(calls, () => cancelDialog.getByRole("button", { name: "Cancel check" }).click());
          console.log(`[e2e] cancel of a 2,000-capture check: action ${cancel.actionMs} ms, next poll answered ${cancel.nextPollMs} ms after it was sent`);
          expect(cancel.nextPollMs).toBeLessThanOrEqual(POLL_INTERVAL_MS);
          await page.getByText(/^Cancelled \d+ waiting capture\(s\)/).waitFor({ timeout: 60_000 });
        } finally {
          // Stop what is left, so the tests after this one get the workers back.
          const cancelled = await page.request.post(`/api/v1/checks/${checkId}/cancel`, { headers: { authorization: `Bearer ${key}` } });
          expect([202, 400, 409], await cancelled.text()).toContain(cancelled.status());
        }
      });
    });
  });
});
