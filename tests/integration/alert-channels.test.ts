// Alert channels and deliveries (issue 12): every channel kind delivered to a local receiver by a
// real worker process (an SMTP server read back with mailparser, Slack and webhook servers, the
// webhook one verifying the Standard Webhooks signature), retries after a receiver failure or a
// timeout, no retry after a 400, a worker killed mid-send, the SSRF guard, tenancy and roles
// through the real server actions, the weekly digest, and the rules' hand-over (a firing).
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectFieldError, join, ok, refused, signUp, type AnyAction, type Person } from "../support/workspace-fixtures";
import { metricValue, parseMetrics } from "../support/metrics-text";
import { waitFor } from "../support/wait-for";
import { sharedWorker, startWorker } from "../support/worker-process";
import {
  createAlertChannelAction,
  deleteAlertChannelAction,
  listAlertChannelsAction,
  listAlertDeliveriesAction,
  rotateWebhookSecretAction,
  sendAlertDeliveryAgainAction,
  sendTestAlertAction,
  updateAlertChannelAction,
} from "@/lib/actions/alert-channels";
import { digestWeek, enqueueWeeklyDigests } from "@/lib/alerts/digest";
import { enqueueFiringDeliveries } from "@/lib/alerts/deliveries";
import { renderTest, type AlertMessage } from "@/lib/alerts/messages";
import { send } from "@/lib/alerts/send";
import type { OverviewKpis } from "@/lib/analytics/kpis";
import { readChart } from "@/lib/analytics/read-chart";
import { recordRollups } from "@/lib/analytics/rollups";
import { reloadEnv } from "@/lib/config/env";
import { onPausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { collectMetrics } from "@/lib/metrics/collect";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// ---------------------------------------------------------------------------------------------
// Receivers

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
const received: Received[] = [];
const hits = new Map<string, number>();
const held: http.ServerResponse[] = [];

// /ok/* 200; /bad/* 400; /fail-once/<tag> 500 then 200; /hang-once/<tag> no answer then 200;
// /cut/* 200 whose body breaks off (the connection reset after the first byte).
const receiver = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (c: string) => (body += c));
  req.on("end", () => {
    const path = req.url ?? "/";
    received.push({ path, headers: req.headers, body });
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    if (path.startsWith("/bad/")) return res.writeHead(400).end("unknown hook");
    if (path.startsWith("/fail-once/") && n === 1) return res.writeHead(500).end("try later");
    if (path.startsWith("/hang-once/") && n === 1) return void held.push(res);
    if (path.startsWith("/cut/")) {
      res.writeHead(200, { "content-length": "100" });
      return void res.write("o", () => res.destroy());
    }
    res.writeHead(200).end("ok");
  });
});

const mails: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream).then(
      (mail) => {
        mails.push(mail);
        callback();
      },
      (error: Error) => callback(error),
    );
  },
});

let base = "";
const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  reloadEnv();
};

let A: Person;
let B: Person;
let member: Person;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  setEnv({
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    ALERTS_EMAIL_FROM: "Beacon Alerts <alerts@beacon.test>",
    ALERTS_ALLOW_PRIVATE_URLS: "true",
    ALERTS_SLACK_BASE_URL: `${base}/ok/slack/`,
    ALERTS_RETRY_BASE_MS: "20",
    ALERTS_SEND_TIMEOUT_MS: "1000",
    BEACON_URL: "https://beacon.example.com",
  });
  A = await signUp({ name: "Alice Owner", workspaceName: "Alerts A" });
  B = await signUp({ name: "Bob Owner", workspaceName: "Alerts B" });
  member = await join(A, "member");
}, 60_000);

afterAll(async () => {
  for (const res of held) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise((resolve) => smtp.close(() => resolve(undefined)));
});

// ---------------------------------------------------------------------------------------------
// Helpers

type Channel = { channel: { id: string; name: string }; secret: string | null };

async function webhook(person: Person, path: string, name = `hook ${randomUUID().slice(0, 6)}`): Promise<Channel> {
  return ok(await person.browser.run(() => createAlertChannelAction({ kind: "webhook", name, url: `${base}${path}` })));
}

async function test(person: Person, channelId: string): Promise<string> {
  return ok(await person.browser.run(() => sendTestAlertAction({ channelId }))).deliveryId;
}

async function settled(deliveryId: string, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const d = await db().alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return d.status === "pending" || d.status === "sending" ? null : d;
    },
    { what: `delivery ${deliveryId} to finish`, timeoutMs },
  );
}

const requestsTo = (path: string) => received.filter((r) => r.path === path);

const alertRows = async () => ({
  channels: await db().alertChannel.findMany({ orderBy: { id: "asc" } }),
  deliveries: await db().alertDelivery.count(),
});

// ---------------------------------------------------------------------------------------------

describe("each channel kind reaches its receiver", () => {
  it("email: the SMTP server gets the message with its subject, recipients and the firing's numbers", async () => {
    const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "Team mail", to: "ann@example.com, Ben@Example.com" })));
    const rule = await db().alertRule.create({ data: { workspaceId: A.workspaceId, name: "Visibility drop", kind: "metric_change", params: {} } });
    await db().alertRuleChannel.create({ data: { ruleId: rule.id, channelId: channel.id } });
    const firing = await db().alertFiring.create({
      data: {
        workspaceId: A.workspaceId, ruleId: rule.id, dedupeKey: "w47", title: "Visibility fell 12 points",
        summary: "Visibility went from 54 % to 42 % week on week.",
        facts: { metric: "visibility", n: 137, values: [0.54, 0.42], interval: [0.331, 0.507], p: 0.0123 },
      },
    });

    const count = await db().$transaction((tx) => enqueueFiringDeliveries(tx, firing.id));
    expect(count).toBe(1);
    const delivery = await db().alertDelivery.findFirstOrThrow({ where: { firingId: firing.id } });
    expect(delivery).toMatchObject({ kind: "firing", channelId: channel.id, workspaceId: A.workspaceId });
    // Its job was enqueued in the same transaction.
    const jobs = await db().$queryRaw<{ task_identifier: string }[]>`SELECT task_identifier FROM graphile_worker.jobs WHERE key = ${`deliver_alert:${delivery.id}`}`;
    expect(jobs).toEqual([{ task_identifier: "deliver_alert" }]);
    const worker = await sharedWorker();

    expect(await settled(delivery.id)).toMatchObject({ status: "delivered", attempts: 1, lastError: null });
    const mail = await waitFor(() => mails.find((m) => m.subject === "Visibility fell 12 points"), { what: "the mail", timeoutMs: 30_000, details: () => worker.output() });
    const to = Array.isArray(mail.to) ? mail.to : [mail.to!];
    expect(to.flatMap((a) => a.value.map((v) => v.address)).sort()).toEqual(["ann@example.com", "ben@example.com"]);
    expect(mail.from?.text).toContain("alerts@beacon.test");
    for (const part of ["Visibility went from 54 % to 42 %", "137", "0.54 – 0.42", "0.331 – 0.507", "0.0123", "Visibility drop", "https://beacon.example.com/alerts"]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.html).toContain("<table");
  });

  it("Slack: the incoming webhook gets text and blocks", async () => {
    const worker = await sharedWorker();
    const url = `${base}/ok/slack/T000/B000/secretpath`;
    const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "slack", name: "Slack #alerts", url })));
    // The hook URL's path is its credential: the list shows only the host.
    const listed = ok(await A.browser.run(() => listAlertChannelsAction())).channels.find((c) => c.id === channel.id)!;
    expect(listed.url).not.toContain("secretpath");

    const deliveryId = await test(A, channel.id);
    expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200 });
    const [request] = requestsTo("/ok/slack/T000/B000/secretpath");
    const body = JSON.parse(request!.body) as { text: string; blocks: { type: string }[] };
    expect(body.text).toContain('test of the alert channel "Slack #alerts"');
    expect(body.blocks.map((b) => b.type)).toEqual(["header", "section", "context"]);
    expect(request!.headers["content-type"]).toBe("application/json");
  });

  it("webhook: the receiver verifies the Standard Webhooks signature with the channel's secret, and a wrong secret fails", async () => {
    const worker = await sharedWorker();
    const { channel, secret } = await webhook(A, "/ok/hook-1");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    // Shown once: never listed again.
    expect(JSON.stringify(ok(await A.browser.run(() => listAlertChannelsAction())))).not.toContain(secret!.slice(6));

    const deliveryId = await test(A, channel.id);
    expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", responseStatus: 200 });
    const [request] = requestsTo("/ok/hook-1");
    const headers = { "webhook-id": String(request!.headers["webhook-id"]), "webhook-timestamp": String(request!.headers["webhook-timestamp"]), "webhook-signature": String(request!.headers["webhook-signature"]) };
    expect(headers["webhook-id"]).toBe(deliveryId);
    const event = new Webhook(secret!).verify(request!.body, headers) as { type: string; data: { channel: { id: string } } };
    expect(event).toMatchObject({ type: "alert.test", data: { channel: { id: channel.id } } });
    expect(() => new Webhook(`whsec_${Buffer.from("not the secret, 24 bytes!").toString("base64")}`).verify(request!.body, headers)).toThrow();
    expect(() => new Webhook(secret!).verify(request!.body.replace("alert.test", "alert.fired"), headers)).toThrow();

    // Rotation: a new secret signs from now on; the old one no longer verifies.
    const rotated = ok(await A.browser.run(() => rotateWebhookSecretAction({ channelId: channel.id }))).secret;
    expect(rotated).not.toBe(secret);
    await settled(await test(A, channel.id));
    const second = requestsTo("/ok/hook-1")[1]!;
    const h2 = { "webhook-id": String(second.headers["webhook-id"]), "webhook-timestamp": String(second.headers["webhook-timestamp"]), "webhook-signature": String(second.headers["webhook-signature"]) };
    expect(new Webhook(rotated).verify(second.body, h2)).toBeTruthy();
    expect(() => new Webhook(secret!).verify(second.body, h2)).toThrow();
  });

  it("webhook: signed with the database's time, so a sender whose clock runs two hours ahead is not refused as a replay", async () => {
    const secret = `whsec_${Buffer.from("a test secret of 24 bytes").toString("base64")}`;
    const deliveryId = randomUUID();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    let outcome;
    try {
      outcome = await send({ kind: "webhook", url: `${base}/ok/clock-hook`, secret }, renderTest({ channel: { id: deliveryId, name: "clock" }, appUrl: "https://beacon.example.com", at: new Date() }), deliveryId);
    } finally {
      vi.useRealTimers();
    }
    expect(outcome).toMatchObject({ kind: "delivered" });
    const [request] = requestsTo("/ok/clock-hook");
    const headers = { "webhook-id": String(request!.headers["webhook-id"]), "webhook-timestamp": String(request!.headers["webhook-timestamp"]), "webhook-signature": String(request!.headers["webhook-signature"]) };
    // A Standard Webhooks receiver refuses a timestamp more than five minutes from its own clock.
    expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();
  });

  it("a URL with a host name is called through the checked lookup", async () => {
    const worker = await sharedWorker();
    const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "webhook", name: "by name", url: `http://localhost:${new URL(base).port}/ok/by-name` })));
    expect(await settled(await test(A, channel.id)), worker.output()).toMatchObject({ status: "delivered", attempts: 1 });
    expect(requestsTo("/ok/by-name")).toHaveLength(1);
  });
});

describe("retries", () => {
  it("a receiver that fails once (500) is retried and delivered, with the same webhook-id both times, and /api/metrics counts both", async () => {
    const webhookCount = async (outcome: string) => metricValue(parseMetrics((await collectMetrics()).body), "beacon_alert_deliveries_total", { channel_kind: "webhook", outcome });
    const before = { retried: await webhookCount("retried"), delivered: await webhookCount("delivered") };
    const worker = await sharedWorker();
    const { channel } = await webhook(A, "/fail-once/a");
    const deliveryId = await test(A, channel.id);
    expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", attempts: 2, responseStatus: 200, lastError: null, nextAttemptAt: null });
    const tries = requestsTo("/fail-once/a");
    expect(tries.map((t) => t.headers["webhook-id"])).toEqual([deliveryId, deliveryId]);
    // Other tests of this file deliver too (one at a time), so at least these two.
    expect(await webhookCount("retried")).toBeGreaterThanOrEqual(before.retried + 1);
    expect(await webhookCount("delivered")).toBeGreaterThanOrEqual(before.delivered + 1);
  });

  it("a 400 fails at once, without a retry, and keeps the receiver's answer", async () => {
    const worker = await sharedWorker();
    const { channel } = await webhook(A, "/bad/x");
    const deliveryId = await test(A, channel.id);
    const failed = await settled(deliveryId);
    expect(failed, worker.output()).toMatchObject({ status: "failed", attempts: 1, responseStatus: 400, nextAttemptAt: null });
    expect(failed.lastError).toContain("HTTP 400: unknown hook");
    // Its job finishes (the task returns after recording the failure) and none replaces it.
    await waitFor(async () => !(await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`deliver_alert:${deliveryId}`}`).length, {
      what: "the delivery's job to finish", timeoutMs: 10_000, details: () => worker.output(),
    });
    expect(requestsTo("/bad/x")).toHaveLength(1);
    expect(await db().alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a receiver that does not answer within the timeout is retried", async () => {
    const worker = await sharedWorker();
    const { channel } = await webhook(A, "/hang-once/t");
    const deliveryId = await test(A, channel.id);
    // While it waits for its retry, the row says why and when.
    const waiting = await waitFor(async () => {
      const d = await db().alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return d.lastError || d.status !== "pending" ? d : null;
    }, { what: "the first attempt to time out", timeoutMs: 20_000 });
    if (waiting.status === "pending") expect(waiting.lastError).toBe("No answer within 1 s");
    expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", attempts: 2 });
    expect(requestsTo("/hang-once/t")).toHaveLength(2);
  });

  it("a Slack receiver that takes the post but answers after the timeout is not posted again: its outcome is unknown", async () => {
    // Slack has no id to tell a repeat by: a post that went out and got no answer may have
    // arrived, so it is never sent again by itself (the webhook above, with its webhook-id, is).
    setEnv({ ALERTS_SLACK_BASE_URL: `${base}/` });
    try {
      const worker = await startWorker("w-slack-late");
      const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "slack", name: "Slack late", url: `${base}/hang-once/slack-late` })));
      const deliveryId = await test(A, channel.id);
      const done = await settled(deliveryId);
      expect(done, worker.output()).toMatchObject({ status: "unknown", attempts: 1, nextAttemptAt: null });
      expect(done.lastError).toMatch(/may have arrived/);
      await waitFor(async () => !(await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`deliver_alert:${deliveryId}`}`).length, {
        what: "the delivery's job to finish", timeoutMs: 10_000, details: () => worker.output(),
      });
      expect(requestsTo("/hang-once/slack-late")).toHaveLength(1);
    } finally {
      setEnv({ ALERTS_SLACK_BASE_URL: `${base}/ok/slack/` });
    }
  });

  it("a Slack post answered 200 whose body breaks off is delivered, and not posted again", async () => {
    setEnv({ ALERTS_SLACK_BASE_URL: `${base}/` });
    try {
      const worker = await startWorker("w-slack-cut");
      const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "slack", name: "Slack cut", url: `${base}/cut/slack` })));
      const deliveryId = await test(A, channel.id);
      const done = await settled(deliveryId);
      expect(done, worker.output()).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200 });
      await waitFor(async () => !(await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`deliver_alert:${deliveryId}`}`).length, {
        what: "the delivery's job to finish", timeoutMs: 10_000, details: () => worker.output(),
      });
      expect(requestsTo("/cut/slack")).toHaveLength(1);
    } finally {
      setEnv({ ALERTS_SLACK_BASE_URL: `${base}/ok/slack/` });
    }
  });

  it("gives up after ALERTS_MAX_ATTEMPTS transient failures", async () => {
    setEnv({ ALERTS_MAX_ATTEMPTS: "2" });
    try {
      const worker = await startWorker("w-max");
      // Nothing listens on port 9 of this machine: connection refused, a transient error.
      const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "webhook", name: "refused", url: "http://127.0.0.1:9/x" })));
      const failed = await settled(await test(A, channel.id));
      expect(failed, worker.output()).toMatchObject({ status: "failed", attempts: 2 });
      expect(failed.lastError).toMatch(/ECONNREFUSED/);
    } finally {
      setEnv({ ALERTS_MAX_ATTEMPTS: undefined });
    }
  });

  it("a worker killed mid-send leaves the delivery to another worker, which delivers it", async () => {
    // A long send timeout, so the first worker is surely still waiting when it is killed.
    setEnv({ ALERTS_SEND_TIMEOUT_MS: "60000" });
    const first = await startWorker("w-crash", { BEACON_WORKER_LEASE_SECONDS: 5 });
    setEnv({ ALERTS_SEND_TIMEOUT_MS: "1000" });
    const { channel } = await webhook(A, "/hang-once/crash");
    const deliveryId = await test(A, channel.id);
    await waitFor(() => requestsTo("/hang-once/crash").length === 1, { what: "the first send to arrive", timeoutMs: 20_000, details: () => first.output() });
    await first.kill();

    const second = await startWorker("w-rescue", { BEACON_WORKER_LEASE_SECONDS: 5 });
    const done = await settled(deliveryId, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${second.output()}`);
    });
    expect(done).toMatchObject({ status: "delivered", attempts: 2 });
    expect(requestsTo("/hang-once/crash").map((r) => r.headers["webhook-id"])).toEqual([deliveryId, deliveryId]);
  }, 90_000);

  it("never sends a delivered delivery again, even if its job runs twice", async () => {
    const worker = await sharedWorker();
    const { channel } = await webhook(A, "/ok/twice");
    const deliveryId = await test(A, channel.id);
    await settled(deliveryId);
    await db().$executeRaw`SELECT graphile_worker.add_job('deliver_alert', ${JSON.stringify({ deliveryId })}::json)`;
    await waitFor(async () => !(await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE task_identifier = 'deliver_alert'`).length, {
      what: "the duplicate job to run", timeoutMs: 10_000, details: () => worker.output(),
    });
    expect(requestsTo("/ok/twice")).toHaveLength(1);
    expect(await db().alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "delivered", attempts: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// A send that reached the receiver but whose record failed: the status write is made to fail
// once, after the send, by a trigger on alert_deliveries (the database refusing the write, as a
// lost connection or a failover would); graphile-worker's retry of the job then runs for real.

async function failNextDeliveredWrite(channelId: string): Promise<() => Promise<void>> {
  const name = `test_fail_${channelId.replace(/-/g, "")}`;
  await db().$executeRawUnsafe(`CREATE SEQUENCE ${name}`);
  await db().$executeRawUnsafe(`
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('${name}') = 1 THEN RAISE EXCEPTION 'injected: the delivery''s status write failed'; END IF;
      RETURN NEW;
    END $$`);
  await db().$executeRawUnsafe(`
    CREATE TRIGGER ${name} BEFORE UPDATE ON alert_deliveries FOR EACH ROW
    WHEN (NEW.status = 'delivered' AND NEW."channelId" = '${channelId}'::uuid) EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON alert_deliveries`);
    await db().$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    await db().$executeRawUnsafe(`DROP SEQUENCE ${name}`);
  };
}

// graphile-worker runs a failed job again exp(attempts) seconds later (2.7 s after the first
// failure). The test moves that first retry to now instead of waiting it out: the retry is still
// graphile-worker's own, taken by the worker's next poll.
async function retryFailedJobNow(deliveryId: string, details: () => string) {
  await waitFor(
    async () =>
      (await db().$executeRaw`
        UPDATE graphile_worker._private_jobs SET run_at = now()
        WHERE key = ${`deliver_alert:${deliveryId}`} AND attempts = 1 AND last_error IS NOT NULL AND locked_at IS NULL`) === 1,
    { what: "the delivery's job to fail once", timeoutMs: 30_000, details },
  );
}

const jobGone = (deliveryId: string, details: () => string) =>
  waitFor(async () => !(await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`deliver_alert:${deliveryId}`}`).length, {
    what: "the delivery's job to finish", timeoutMs: 30_000, details,
  });

const deliveryCount = async (kind: string, outcome: string) => metricValue(parseMetrics((await collectMetrics()).body), "beacon_alert_deliveries_total", { channel_kind: kind, outcome });

describe("a send whose status write failed", () => {
  it.each(["slack", "email"] as const)("%s (no id to dedupe by): the retry does not send again; the log says unknown, and sending again is the user's choice", async (kind) => {
    const worker = await sharedWorker();
    const path = `/ok/slack/T1/B1/unknown-${randomUUID().slice(0, 6)}`;
    const { channel } = ok(await A.browser.run(() =>
      createAlertChannelAction(kind === "slack" ? { kind, name: `Unknown ${path}`, url: `${base}${path}` } : { kind, name: `Unknown ${path}`, to: `unknown-${path.slice(-6)}@example.com` }),
    ));
    const arrived = () => (kind === "slack" ? requestsTo(path).length : mails.filter((m) => m.text?.includes(`"Unknown ${path}"`)).length);
    const before = { unknown: await deliveryCount(kind, "unknown"), delivered: await deliveryCount(kind, "delivered") };
    const restore = await failNextDeliveredWrite(channel.id);
    try {
      const deliveryId = await test(A, channel.id);
      await retryFailedJobNow(deliveryId, () => worker.output());
      const row = await settled(deliveryId, 30_000);
      await jobGone(deliveryId, () => worker.output());
      expect(arrived()).toBe(1);
      expect(row, worker.output()).toMatchObject({ status: "unknown", attempts: 1 });
      expect(row.lastError).toMatch(/may have arrived/);
      expect(await db().alertDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "unknown" });
      expect(await deliveryCount(kind, "unknown")).toBe(before.unknown + 1);
      expect(await deliveryCount(kind, "delivered")).toBe(before.delivered);
      // The log lists it as unknown.
      const log = ok(await A.browser.run(() => listAlertDeliveriesAction({ channelId: channel.id, status: "unknown" })));
      expect(log.rows.map((r) => r.id)).toEqual([deliveryId]);

      // The user chooses to send it again: once more, recorded this time.
      ok(await A.browser.run(() => sendAlertDeliveryAgainAction({ deliveryId })));
      expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", lastError: null });
      await waitFor(() => arrived() === 2, { what: "the message sent again", timeoutMs: 10_000 });
      // Only an unknown delivery can be sent again, and only by its workspace's admins.
      refused(await A.browser.run(() => sendAlertDeliveryAgainAction({ deliveryId })), "conflict");
      refused(await B.browser.run(() => sendAlertDeliveryAgainAction({ deliveryId })), "not_found");
      refused(await member.browser.run(() => sendAlertDeliveryAgainAction({ deliveryId })), "forbidden");
      expect(arrived()).toBe(2);
    } finally {
      await restore();
    }
  }, 60_000);

  it("webhook (webhook-id): the retry sends again by itself with the same id, and records it", async () => {
    const worker = await sharedWorker();
    const { channel } = await webhook(A, "/ok/unknown-hook");
    const restore = await failNextDeliveredWrite(channel.id);
    try {
      const deliveryId = await test(A, channel.id);
      await retryFailedJobNow(deliveryId, () => worker.output());
      expect(await settled(deliveryId, 30_000), worker.output()).toMatchObject({ status: "delivered", attempts: 2, lastError: null });
      expect(requestsTo("/ok/unknown-hook").map((r) => r.headers["webhook-id"])).toEqual([deliveryId, deliveryId]);
    } finally {
      await restore();
    }
  }, 60_000);
});

describe("the SSRF guard (ALERTS_ALLOW_PRIVATE_URLS off)", () => {
  it("refuses internal addresses when a channel is saved, and changes nothing", async () => {
    setEnv({ ALERTS_ALLOW_PRIVATE_URLS: undefined, ALERTS_SLACK_BASE_URL: undefined });
    try {
      const before = await db().alertChannel.count();
      for (const url of ["https://127.0.0.1/hook", "https://10.1.2.3/hook", "https://169.254.169.254/latest/meta-data", "https://localhost/hook", "https://[::1]/hook", "https://[::ffff:10.0.0.1]/x", "https://0.0.0.0/", "https://[::127.0.0.1]/", "https://[64:ff9b::a9fe:a9fe]/", "https://[2002:7f00:1::1]/"]) {
        expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "webhook", name: `bad ${url}`, url })), "url", /internal address/);
      }
      expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "webhook", name: "plain http", url: "http://93.184.215.14/hook" })), "url", /https:\/\//);
      expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "slack", name: "not slack", url: "https://example.com/services/x" })), "url", /hooks\.slack\.com/);
      expect(await db().alertChannel.count()).toBe(before);
    } finally {
      setEnv({ ALERTS_ALLOW_PRIVATE_URLS: "true", ALERTS_SLACK_BASE_URL: `${base}/ok/slack/` });
    }
  });

  it("checks again at send time: a host that resolves to an internal address by then is not called", async () => {
    const { channel } = await webhook(A, "/ok/later-refused");
    // As if the name had resolved to a public address when saved and to loopback now (DNS rebinding).
    await db().alertChannel.update({ where: { id: channel.id }, data: { config: { url: `https://localhost:${new URL(base).port}/ok/later-refused` } } });
    setEnv({ ALERTS_ALLOW_PRIVATE_URLS: "false" });
    try {
      const worker = await startWorker("w-ssrf");
      const failed = await settled(await test(A, channel.id));
      expect(failed, worker.output()).toMatchObject({ status: "failed", attempts: 1 });
      expect(failed.lastError).toMatch(/localhost resolves to an internal address \((127\.0\.0\.1|::1) is a loopback address\)/);
      expect(requestsTo("/ok/later-refused")).toHaveLength(0);
    } finally {
      setEnv({ ALERTS_ALLOW_PRIVATE_URLS: "true" });
    }
  });
});

describe("the delivery log's polling", () => {
  it("the log's read never stops the page's polling beside a row it shows unfinished: a read held while that delivery ends", async () => {
    const { channel } = await webhook(A, "/ok/held-read");
    // A delivery no job will run (so no worker races the test); the hook ends it as a worker would.
    const delivery = await db().alertDelivery.create({
      data: { workspaceId: A.workspaceId, channelId: channel.id, kind: "test", status: "sending", message: { subject: "held read", text: "held read" } },
    });
    let ran = false;
    const release = onPausePoint("deliveries:between-reads", async () => {
      if (ran) return;
      ran = true;
      await db().alertDelivery.update({ where: { id: delivery.id }, data: { status: "delivered", deliveredAt: new Date(), attempts: 1 } });
    });
    try {
      const log = ok(await A.browser.run(() => listAlertDeliveriesAction({ channelId: channel.id })));
      expect(ran).toBe(true);
      expect(log.rows.map((r) => [r.id, r.status])).toEqual([[delivery.id, "sending"]]);
      expect(log.pending, "the page stops polling when pending is false, and would show this row as sending for good").toBe(true);
    } finally {
      release();
      await db().alertDelivery.delete({ where: { id: delivery.id } });
    }
  });
});

describe("who may do what", () => {
  it("another workspace's admin can neither see, change, test nor delete a channel, nor read its deliveries", async () => {
    const { channel } = await webhook(A, "/ok/scoped", "scoped hook");
    await test(A, channel.id);
    const rows = await alertRows();
    expect(ok(await B.browser.run(() => listAlertChannelsAction())).channels.map((c) => c.id)).not.toContain(channel.id);
    refused(await B.browser.run(() => sendTestAlertAction({ channelId: channel.id })), "not_found");
    refused(await B.browser.run(() => rotateWebhookSecretAction({ channelId: channel.id })), "not_found");
    refused(await B.browser.run(() => deleteAlertChannelAction({ channelId: channel.id })), "not_found");
    refused(await B.browser.run(() => updateAlertChannelAction({ channelId: channel.id, kind: "webhook", name: "taken", url: `${base}/ok/evil` })), "not_found");
    const log = ok(await B.browser.run(() => listAlertDeliveriesAction({ channelId: channel.id })));
    expect(log.total).toBe(0);
    expect(await alertRows()).toEqual(rows);
    expect(await db().alertChannel.findUniqueOrThrow({ where: { id: channel.id } })).toMatchObject({ name: "scoped hook" });
    // A's own log has it.
    expect(ok(await A.browser.run(() => listAlertDeliveriesAction({ channelId: channel.id }))).rows[0]).toMatchObject({ kind: "test", channel: { id: channel.id } });
  });

  it("members are refused everything, with a message that says admins manage alerts", async () => {
    const { channel } = await webhook(A, "/ok/member");
    const before = await db().alertChannel.count();
    const calls: AnyAction[] = [
      () => listAlertChannelsAction(),
      () => listAlertDeliveriesAction({}),
      () => createAlertChannelAction({ kind: "email", name: "mine", to: "me@example.com" }),
      () => sendTestAlertAction({ channelId: channel.id }),
      () => deleteAlertChannelAction({ channelId: channel.id }),
      () => rotateWebhookSecretAction({ channelId: channel.id }),
    ];
    for (const call of calls) {
      expect(refused(await member.browser.run(call), "forbidden").message).toMatch(/admins/);
    }
    expect(await db().alertChannel.count()).toBe(before);
  });

  it("bad input gets a clear message and changes nothing", async () => {
    const before = await db().alertChannel.count();
    const many = Array.from({ length: 21 }, (_, i) => `p${i}@example.com`).join(",");
    expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "many", to: many })), "to", /At most 20/);
    expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "typo", to: "ann@example.com, not-an-address" })), "to", /valid email/);
    expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "", to: "ann@example.com" })), "name", /name/);
    expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "webhook", name: "nourl", url: "not a url" })), "url", /full URL/);
    await webhook(A, "/ok/dup", "Duplicate");
    expectFieldError(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "Duplicate", to: "a@example.com" })), "name", /already exists/);
    expect(await db().alertChannel.count()).toBe(before + 1);
    const email = ok(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "kind stays", to: "a@example.com" }))).channel;
    expectFieldError(await A.browser.run(() => updateAlertChannelAction({ channelId: email.id, kind: "webhook", name: "kind stays", url: `${base}/ok/k` })), "kind", /cannot change/);
    expect((await db().alertChannel.findUniqueOrThrow({ where: { id: email.id } })).kind).toBe("email");
  });

  it("without SMTP_URL an email channel saves, the list says so, and its deliveries fail saying why", async () => {
    const smtpUrl = process.env.SMTP_URL;
    setEnv({ SMTP_URL: undefined });
    try {
      const worker = await startWorker("w-nosmtp");
      const { channel } = ok(await A.browser.run(() => createAlertChannelAction({ kind: "email", name: "No SMTP", to: "x@example.com" })));
      expect(ok(await A.browser.run(() => listAlertChannelsAction())).smtpConfigured).toBe(false);
      const failed = await settled(await test(A, channel.id));
      expect(failed, worker.output()).toMatchObject({ status: "failed", attempts: 1, lastError: "SMTP is not configured on this server (SMTP_URL)" });
    } finally {
      setEnv({ SMTP_URL: smtpUrl });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The weekly digest

async function history(workspaceId: string) {
  const brand = await db().brand.create({ data: { workspaceId, name: "Acme", competitors: { create: [{ workspaceId, name: "Rival" }] } }, include: { competitors: true } });
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = await db().providerConfig.create({ data: { workspaceId, name: "Sim", connectionId: simulator.id, model: "m" } });
  const prompt = await db().prompt.create({ data: { workspaceId, text: "Best anvil?" } });
  // Week of 2026-11-23: Acme named in 3 of 4 answers (first twice, second once); the week before: 1 of 2.
  const answers = [
    { at: "2026-11-16T10:00:00Z", acme: 1 }, { at: "2026-11-18T10:00:00Z", acme: null },
    { at: "2026-11-23T10:00:00Z", acme: 1 }, { at: "2026-11-24T10:00:00Z", acme: 1 }, { at: "2026-11-26T10:00:00Z", acme: 2 }, { at: "2026-11-29T23:00:00Z", acme: null },
    // Monday of the digest: not in its week.
    { at: "2026-11-30T07:00:00Z", acme: null },
  ];
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: answers.length, status: "completed" } });
  const ids: string[] = [];
  for (const [i, a] of answers.entries()) {
    const capture = await db().capture.create({
      data: {
        workspaceId, checkId: check.id, brandId: brand.id, promptId: prompt.id, providerConfigId: provider.id, connectionId: simulator.id, sample: i + 1,
        status: "succeeded", maxAttempts: 3, attemptCount: 1, model: "m", searchMode: "off", answerText: "x", finishedAt: new Date(a.at), analyzedAt: new Date(a.at),
      },
    });
    ids.push(capture.id);
    await db().mention.createMany({
      data: [
        { workspaceId, captureId: capture.id, kind: "brand", name: "Acme", brandId: brand.id, mentioned: a.acme !== null, count: a.acme ? 1 : 0, position: a.acme, sentiment: a.acme ? "positive" : null },
        { workspaceId, captureId: capture.id, kind: "competitor", name: "Rival", competitorId: brand.competitors[0]!.id, mentioned: true, count: 1, position: a.acme === 1 ? 2 : 1, sentiment: "neutral" },
      ],
    });
  }
  await recordRollups(db(), ids);
  return brand;
}

describe("the weekly digest", () => {
  it("sends each email channel the past week's numbers per brand, as the KPIs chart has them, once per week", async () => {
    const C = await signUp({ name: "Carol Owner", workspaceName: "Digest C" });
    const brand = await history(C.workspaceId);
    const { channel } = ok(await C.browser.run(() => createAlertChannelAction({ kind: "email", name: "Digest mail", to: "carol@example.com" })));
    // Slack and webhook channels get no digest.
    await webhook(C, "/ok/no-digest");
    const worker = await sharedWorker();

    const monday = new Date("2026-11-30T08:00:00Z");
    expect(await enqueueWeeklyDigests(monday)).toBeGreaterThanOrEqual(1);
    const [delivery, ...more] = await db().alertDelivery.findMany({ where: { workspaceId: C.workspaceId, kind: "digest" } });
    expect(more).toEqual([]);
    expect(delivery!.channelId).toBe(channel.id);

    const message = delivery!.message as unknown as AlertMessage;
    const kpis = (await readChart(C.workspaceId, "kpis", new URLSearchParams({ brand: brand.id, from: "2026-11-23", to: "2026-11-29" }))) as OverviewKpis;
    expect(kpis.visibility.current).toMatchObject({ value: 0.75, n: 4 });
    expect(kpis.visibility.change).toBeCloseTo(0.25);
    expect(message.webhook.data.brands).toEqual([expect.objectContaining({ name: "Acme", captures: 4, previousCaptures: 2, visibility: kpis.visibility, shareOfVoice: kpis.shareOfVoice, averagePosition: kpis.averagePosition })]);
    expect(message.subject).toBe("Beacon weekly digest for Digest C: 2026-11-23 to 2026-11-29");

    // Run again (a second worker's cron, a restart): nothing new.
    expect(await enqueueWeeklyDigests(new Date("2026-11-30T09:30:00Z"))).toBe(0);
    expect(await db().alertDelivery.count({ where: { workspaceId: C.workspaceId, kind: "digest" } })).toBe(1);

    expect(await settled(delivery!.id), worker.output()).toMatchObject({ status: "delivered" });
    const mail = await waitFor(() => mails.find((m) => m.subject === message.subject), { what: "the digest mail", timeoutMs: 30_000 });
    expect(mail.text).toContain("Acme: visibility");
    // 75 % (95 % interval), n = 4, +25 pp on the week before's 50 %.
    expect(mail.text).toMatch(/Acme: visibility\s+75 % \(95 % [\d.]+ %–[\d.]+ %\), n = 4; \+25 pp vs the week before/);
    // Position: Acme first, first, second: 1.33.
    expect(mail.text).toMatch(/Acme: average position\s+1\.33 .*n = 3/);
    expect(mail.text).toContain("Acme: answers");
  }, 60_000);

  it("the week comes from the database's clock, not the worker's", async () => {
    const F = await signUp({ name: "Fay Owner", workspaceName: "Digest F" });
    ok(await F.browser.run(() => createAlertChannelAction({ kind: "email", name: "Digest mail", to: "fay@example.com" })));
    const [{ now }] = await db().$queryRaw<[{ now: Date }]>`SELECT now() AS now`;
    vi.useFakeTimers({ toFake: ["Date"], now: now.getTime() + 400 * 86_400_000 });
    try {
      await enqueueWeeklyDigests();
    } finally {
      vi.useRealTimers();
    }
    const [delivery] = await db().alertDelivery.findMany({ where: { workspaceId: F.workspaceId, kind: "digest" } });
    expect((delivery!.message as unknown as { digestKey: string }).digestKey).toBe(`digest:${digestWeek(now).from}`);
  });

  it("a brand deleted while the digest reads the workspace's brands: that workspace's digest goes without it, and every other workspace's still goes", async () => {
    const monday = new Date("2026-12-14T08:00:00Z");
    const made = [];
    for (const name of ["Gus", "Hal"]) {
      const person = await signUp({ name: `${name} Owner`, workspaceName: `Digest ${name}` });
      const brand = await db().brand.create({ data: { workspaceId: person.workspaceId, name: `${name} Brand` } });
      await db().brand.create({ data: { workspaceId: person.workspaceId, name: `${name} Kept` } });
      ok(await person.browser.run(() => createAlertChannelAction({ kind: "email", name: "Digest mail", to: `${name.toLowerCase()}@example.com` })));
      made.push({ person, brand });
    }
    const [G, H] = made;
    // G's first brand is deleted (the Brands page) after the digest listed G's brands.
    const off = onPausePoint("digest:brands-read", async ({ workspaceId }) => {
      if (workspaceId === G!.person.workspaceId) await db().brand.deleteMany({ where: { id: G!.brand.id } });
    });
    try {
      expect(await enqueueWeeklyDigests(monday)).toBeGreaterThanOrEqual(2);
    } finally {
      off();
    }
    const brandsIn = async (workspaceId: string) =>
      (await db().alertDelivery.findMany({ where: { workspaceId, kind: "digest" } })).map((d) => ((d.message as unknown as AlertMessage).webhook.data.brands as { name: string }[]).map((b) => b.name));
    expect(await brandsIn(G!.person.workspaceId)).toEqual([["Gus Kept"]]);
    expect(await brandsIn(H!.person.workspaceId)).toEqual([["Hal Brand", "Hal Kept"]]);

    // The next week one workspace's digest fails (its numbers cannot be read): the other's still
    // goes, and the pass fails after them all (graphile-worker runs it again), making G's then.
    const nextWeek = new Date("2026-12-21T08:00:00Z");
    const failing = onPausePoint("digest:brands-read", ({ workspaceId }) => {
      if (workspaceId === G!.person.workspaceId) throw new Error("statement timeout");
    });
    try {
      await expect(enqueueWeeklyDigests(nextWeek)).rejects.toThrow(/failed for 1 of/);
    } finally {
      failing();
    }
    const weekOf = async (workspaceId: string) => db().alertDelivery.count({ where: { workspaceId, kind: "digest", message: { path: ["digestKey"], equals: "digest:2026-12-14" } } });
    expect([await weekOf(G!.person.workspaceId), await weekOf(H!.person.workspaceId)]).toEqual([0, 1]);
    expect(await enqueueWeeklyDigests(nextWeek)).toBeGreaterThanOrEqual(1);
    expect([await weekOf(G!.person.workspaceId), await weekOf(H!.person.workspaceId)]).toEqual([1, 1]);
  });

  it("two crons at once for the same week: both wait on the workspace's lock, one digest is made", async () => {
    const D = await signUp({ name: "Dora Owner", workspaceName: "Digest D" });
    ok(await D.browser.run(() => createAlertChannelAction({ kind: "email", name: "Digest mail", to: "dora@example.com" })));
    const digests = () => db().alertDelivery.count({ where: { workspaceId: D.workspaceId, kind: "digest" } });
    // Hold the lock both crons take before they look for the week's digest, then let them go.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(hashtext($1))", [`alert_digest:${D.workspaceId}`]);
      const monday = new Date("2026-12-07T08:00:00Z");
      const runs = [enqueueWeeklyDigests(monday), enqueueWeeklyDigests(monday)];
      await waitFor(
        async () => (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]!.n >= 2,
        { what: "both crons waiting on the workspace's digest lock", timeoutMs: 10_000, intervalMs: 10 },
      );
      expect(await digests()).toBe(0);
      await holder.query("SELECT pg_advisory_unlock(hashtext($1))", [`alert_digest:${D.workspaceId}`]);
      await Promise.all(runs);
    } finally {
      await holder.end();
    }
    expect(await digests()).toBe(1);
  }, 30_000);
});

describe("retention", () => {
  it("deletes deliveries that ended longer ago than ALERTS_DELIVERY_RETENTION_DAYS, never a pending one", async () => {
    const E = await signUp({ name: "Erin Owner", workspaceName: "Retention E" });
    const { channel } = await webhook(E, "/ok/retention");
    const message = { subject: "s", text: "t" };
    const row = (status: "delivered" | "failed" | "pending", daysAgo: number) => {
      const at = new Date(Date.now() - daysAgo * 86_400_000);
      return db().alertDelivery.create({ data: { workspaceId: E.workspaceId, channelId: channel.id, kind: "test", message, status, createdAt: at, endedAt: status === "pending" ? null : at } });
    };
    const [oldDelivered, oldFailed, oldPending, recent] = [await row("delivered", 40), await row("failed", 31), await row("pending", 40), await row("delivered", 29)];
    const { deliveriesDeleted } = await runRetention({ attemptRetentionDays: 3650, deliveryRetentionDays: 30 });
    expect(deliveriesDeleted).toBeGreaterThanOrEqual(2);
    const left = await db().alertDelivery.findMany({ where: { workspaceId: E.workspaceId }, select: { id: true } });
    expect(left.map((d) => d.id).sort()).toEqual([oldPending.id, recent.id].sort());
    expect(left.map((d) => d.id)).not.toContain(oldDelivered.id);
    expect(left.map((d) => d.id)).not.toContain(oldFailed.id);
  });

  it("keeps a digest's delivery past its week whatever the retention, so a digest pass run again that week does not send it twice", async () => {
    const R = await signUp({ name: "Rhea Owner", workspaceName: "Retention digest" });
    ok(await R.browser.run(() => createAlertChannelAction({ kind: "email", name: "Digest mail", to: "rhea@example.com" })));
    const monday = new Date("2027-01-04T08:00:00Z");
    const at = (days: number) => new Date(monday.getTime() + days * 86_400_000);
    const digests = () => db().alertDelivery.findMany({ where: { workspaceId: R.workspaceId, kind: "digest" } });
    expect(await enqueueWeeklyDigests(monday)).toBeGreaterThanOrEqual(1);
    const [sent] = await digests();
    await db().alertDelivery.update({ where: { id: sent!.id }, data: { status: "delivered", deliveredAt: at(0.01), endedAt: at(0.01) } });
    // Thursday: a day's retention has passed, and the Monday pass is run again (a retry).
    await runRetention({ attemptRetentionDays: 3650, deliveryRetentionDays: 1, now: at(3) });
    await enqueueWeeklyDigests(at(3));
    expect((await digests()).map((d) => d.id)).toEqual([sent!.id]);
    // Past the week it goes by the retention.
    await runRetention({ attemptRetentionDays: 3650, deliveryRetentionDays: 1, now: at(9) });
    expect(await digests()).toEqual([]);
  });

  it("counts a delivery's days from when it ended: an old one of unknown outcome sent again and delivered now is kept", async () => {
    const F = await signUp({ name: "Fay Owner", workspaceName: "Retention F" });
    const { channel } = await webhook(F, "/ok/retention-again");
    const worker = await sharedWorker();
    const deliveryId = await test(F, channel.id);
    await settled(deliveryId);
    // Made 40 days ago, its outcome unknown since.
    const long = new Date(Date.now() - 40 * 86_400_000);
    await db().alertDelivery.update({ where: { id: deliveryId }, data: { status: "unknown", createdAt: long, endedAt: long, deliveredAt: null } });
    ok(await F.browser.run(() => sendAlertDeliveryAgainAction({ deliveryId })));
    expect(await settled(deliveryId), worker.output()).toMatchObject({ status: "delivered", endedAt: expect.any(Date) });

    await runRetention({ attemptRetentionDays: 3650, deliveryRetentionDays: 30 });
    expect(await db().alertDelivery.count({ where: { id: deliveryId } }), "delivered today, kept for its 30 days").toBe(1);
  });
});
