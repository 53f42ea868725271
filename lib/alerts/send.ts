import "server-only";
import http from "node:http";
import https from "node:https";
import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import type { AlertMessage } from "@/lib/alerts/messages";
import { databaseNow } from "@/lib/db/clock";
import { classifyHttpStatus, shortError, type Outcome } from "@/lib/alerts/retry";
import { checkedAddresses, guardedLookup, urlProblem } from "@/lib/alerts/safe-url";
import { UnsafeUrlError } from "@/lib/net/safe-url";
import { env } from "@/lib/config/env";

// One send per channel kind, each ending in an Outcome the delivery job records (lib/alerts/
// deliveries.ts). Every send has a timeout; HTTP sends are pinned to checked addresses and never
// follow redirects; error texts keep no secrets (URL paths, SMTP credentials).

export const SMTP_NOT_CONFIGURED = "SMTP is not configured on this server (SMTP_URL)";

export type SendTarget =
  | { kind: "email"; to: string[] }
  | { kind: "slack"; url: string }
  | { kind: "webhook"; url: string; secret: string };

/** POSTs JSON; the response body is read (up to a few KB) only for the error message. */
async function postJson(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Outcome> {
  const target = new URL(url);
  // Node skips `lookup` for IP literals, so those are checked here.
  await checkedAddresses(target.hostname);
  const request = target.protocol === "https:" ? https.request : http.request;
  return new Promise<Outcome>((resolve) => {
    // Whether the whole request went out: a failure before that is safe to retry, one after it
    // leaves the outcome unknown (the receiver may have acted on it).
    let sent = false;
    const req = request(
      target,
      {
        method: "POST",
        lookup: guardedLookup,
        headers: { "content-type": "application/json", "user-agent": "Beacon-Alerts/1", "content-length": Buffer.byteLength(body), ...headers },
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < 2000) text += chunk;
        });
        res.on("end", () => resolve(classifyHttpStatus(res.statusCode ?? 0, shortError(text, 200))));
        // Cut off mid-body (the timeout, a reset): the status line was the receiver's answer. A
        // 2xx took the message (Slack posted it: trying again would post it twice); any other
        // status is judged as when the body arrives whole. Whichever event comes first settles it.
        const cut = (detail: string) => resolve(classifyHttpStatus(res.statusCode ?? 0, shortError(text || detail, 200)));
        res.on("error", (error) => cut(error.message));
        res.on("close", () => {
          if (!res.complete) cut("The connection closed before the answer was complete");
        });
      },
    );
    req.on("finish", () => (sent = true));
    req.on("error", (error: Error) => {
      if (error instanceof UnsafeUrlError) return resolve({ kind: "permanent", error: error.message });
      const timedOut = error.name === "AbortError" || error.name === "TimeoutError";
      const detail = timedOut ? `No answer within ${timeoutMs / 1000} s` : shortError(`${(error as NodeJS.ErrnoException).code ?? "network error"}: ${error.message}`);
      resolve(sent ? { kind: "unknown", error: `${detail} after the message was sent` } : { kind: "transient", error: detail });
    });
    req.end(body);
  });
}

/** Errors of a connection that was never made (nothing was sent). */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EDNS"]);

async function sendEmail(to: string[], message: AlertMessage, timeoutMs: number): Promise<Outcome> {
  const { SMTP_URL, ALERTS_EMAIL_FROM } = env();
  if (!SMTP_URL) return { kind: "permanent", error: SMTP_NOT_CONFIGURED };
  const transport = nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  try {
    const info = await transport.sendMail({ from: ALERTS_EMAIL_FROM, to, subject: message.subject, text: message.text, html: message.html });
    if (info.rejected.length && !info.accepted.length) return { kind: "permanent", error: `All recipients refused: ${info.rejected.join(", ")}` };
    return { kind: "delivered" };
  } catch (error) {
    const e = error as Error & { responseCode?: number; code?: string; originalCode?: string };
    const detail = shortError(`${e.code ?? "SMTP"}${e.responseCode ? ` ${e.responseCode}` : ""}: ${e.message}`);
    // SMTP replies 4xx for "try later" and 5xx for "never": the server did not take the message.
    if (typeof e.responseCode === "number") return { kind: e.responseCode >= 500 ? "permanent" : "transient", error: detail };
    // No reply: only a server never reached surely has nothing; a cut or a timeout later on may
    // have come after the message was taken, and email cannot tell a repeat.
    return NEVER_CONNECTED.has(e.originalCode ?? e.code ?? "") ? { kind: "transient", error: detail } : { kind: "unknown", error: detail };
  } finally {
    transport.close();
  }
}

/** Sends `message` to `target`; `deliveryId` becomes the webhook-id, the same on every retry. */
export async function send(target: SendTarget, message: AlertMessage, deliveryId: string): Promise<Outcome> {
  const timeoutMs = env().ALERTS_SEND_TIMEOUT_MS;
  try {
    if (target.kind === "email") return await sendEmail(target.to, message, timeoutMs);
    // The URL is checked again at send time: the operator may have turned private URLs off since.
    const problem = await urlProblem(target.url, target.kind);
    if (problem) return { kind: "permanent", error: problem };
    if (target.kind === "slack") return await postJson(target.url, JSON.stringify(message.slack), {}, timeoutMs);
    const body = JSON.stringify(message.webhook);
    // The database's time, not this worker's: a receiver refuses a timestamp more than five
    // minutes from its own clock (Standard Webhooks), so the one clock to keep right is the database's.
    const timestamp = await databaseNow();
    const signature = new Webhook(target.secret).sign(deliveryId, timestamp, body);
    const headers = { "webhook-id": deliveryId, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature };
    const outcome = await postJson(target.url, body, headers, timeoutMs);
    // A receiver that got it once tells the repeat by its webhook-id: worth another try.
    return outcome.kind === "unknown" ? { ...outcome, kind: "transient", error: outcome.error.replace(/ after the message was sent$/, "") } : outcome;
  } catch (error) {
    if (error instanceof UnsafeUrlError) return { kind: "permanent", error: error.message };
    return { kind: "transient", error: shortError(error instanceof Error ? error.message : String(error)) };
  }
}
