import "server-only";
import type { ChannelConfig, DeliveryListInput, DeliveryStatus } from "@/lib/alerts/channel-schemas";
import { DELIVERY_PAGE_SIZE, isUnfinishedDelivery, UNFINISHED_DELIVERY_STATUSES } from "@/lib/alerts/channel-schemas";
import { renderFiring, renderTest, type AlertMessage } from "@/lib/alerts/messages";
import { retryDelayMs, type Outcome } from "@/lib/alerts/retry";
import { send, type SendTarget } from "@/lib/alerts/send";
import { env, publicUrl } from "@/lib/config/env";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { Prisma, type AlertDeliveryKind } from "@/lib/generated/prisma/client";
import { jobCatalog } from "@/lib/jobs/catalog";
import { addJob } from "@/lib/jobs/enqueue";

// Deliveries: one message to one channel. The row and its deliver_alert job are created in one
// transaction, so a delivery exists exactly when its job does. The row is the truth: a job that
// finds its delivery delivered or failed does nothing, so a delivered message is never sent again.
//
// Lifecycle: pending --claim--> sending (a fresh sendToken) --send ok--> delivered; --permanent
// error, or attempts used up--> failed; --transient error--> pending with nextAttemptAt, its job
// re-enqueued for then. A run that finds the delivery still `sending` knows only that an earlier
// send's outcome was never recorded (its worker died mid-send, or the status write failed after
// the send): the message may have arrived. A webhook carries its webhook-id, so a receiver drops
// a duplicate: it is sent again at once. Email and Slack carry no id to dedupe by: they become
// `unknown`, never sent again by themselves; the delivery log offers "Send again", the user's
// choice (sendDeliveryAgain). Each outcome write is fenced by the claim's sendToken.

type Tx = Prisma.TransactionClient;

/** Enqueues the deliver_alert job of a delivery, `delayMs` after the database's now. */
async function enqueueDeliveryJob(tx: Pick<Tx, "$executeRaw">, deliveryId: string, delayMs = 0): Promise<void> {
  await addJob(tx, "deliver_alert", { deliveryId }, { jobKey: jobCatalog.deliver_alert.jobKey({ deliveryId }), delayMs });
}

/** Inserts a pending delivery and enqueues its job, in the caller's transaction. */
export async function createDelivery(
  tx: Tx,
  d: { workspaceId: string; channelId: string; kind: AlertDeliveryKind; message: AlertMessage; firingId?: string },
): Promise<string> {
  const row = await tx.alertDelivery.create({
    data: { workspaceId: d.workspaceId, channelId: d.channelId, kind: d.kind, firingId: d.firingId, message: d.message as unknown as Prisma.InputJsonValue },
    select: { id: true },
  });
  await enqueueDeliveryJob(tx, row.id);
  return row.id;
}

/**
 * For the rules' evaluation, inside its transaction: one 'firing' delivery (and its job) per
 * channel of the firing's rule, each with the message rendered for it. Returns how many.
 */
export async function enqueueFiringDeliveries(tx: Tx, firingId: string): Promise<number> {
  const firing = await tx.alertFiring.findUniqueOrThrow({
    where: { id: firingId },
    include: { rule: { include: { brand: { select: { id: true, name: true } } } } },
  });
  const message = renderFiring({ firing, rule: firing.rule, brand: firing.rule.brand, appUrl: publicUrl() });
  // The rule's channels, each held (key share) until the firing commits: a channel deleted now
  // waits, and its cascade then takes its delivery with it, instead of the delivery's insert
  // failing on the deleted channel and rolling the whole firing back. One deleted before this
  // read is skipped. A channel of another workspace cannot be linked to a rule through the app;
  // never send to one.
  const channels = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM alert_rule_channels rc JOIN alert_channels c ON c.id = rc."channelId"
    WHERE rc."ruleId" = ${firing.ruleId}::uuid AND c."workspaceId" = ${firing.workspaceId}::uuid
    ORDER BY c.id FOR KEY SHARE OF c`;
  await pausePoint("alert:channels-read", { tx, ruleId: firing.ruleId });
  for (const channel of channels) {
    await createDelivery(tx, { workspaceId: firing.workspaceId, channelId: channel.id, kind: "firing", firingId, message });
  }
  return channels.length;
}

/** "Send test": a 'test' delivery to one channel of the workspace. Does not authorize. */
export async function sendTestDelivery(workspaceId: string, channelId: string): Promise<{ deliveryId: string }> {
  const channel = await db().alertChannel.findFirst({ where: { id: channelId, workspaceId }, select: { id: true, name: true } });
  if (!channel) throw new NotFoundError("This channel does not exist in this workspace.");
  const message = renderTest({ channel, appUrl: publicUrl(), at: new Date() });
  const deliveryId = await transaction((tx) => createDelivery(tx, { workspaceId, channelId, kind: "test", message }));
  return { deliveryId };
}

export function sendTarget(channel: { kind: string; config: unknown; secret: string | null }): SendTarget {
  const config = channel.config as ChannelConfig;
  if (channel.kind === "email") return { kind: "email", to: (config as { to: string[] }).to };
  const url = (config as { url: string }).url;
  return channel.kind === "slack" ? { kind: "slack", url } : { kind: "webhook", url, secret: channel.secret ?? "" };
}

export type DeliveryRun = "delivered" | "failed" | "retry" | "skipped" | "unknown";

/** What the log says of a delivery whose send may have arrived but was never recorded. */
export const UNKNOWN_OUTCOME = "The message may have arrived: the send started but its result was never recorded (the worker stopped or the database failed). Email and Slack cannot tell a repeat, so it is not sent again unless you choose to.";

/** What the log says of an email or Slack send that went out and got no answer. */
const SENT_NO_ANSWER = "The message may have arrived: it was sent but no answer came back. Email and Slack cannot tell a repeat, so it is not sent again unless you choose to.";

/**
 * One attempt at a delivery (the deliver_alert task). Claims the attempt first (pending ->
 * sending, attempts + 1, a new sendToken), so a worker that dies mid-send leaves a row that says
 * so; a webhook found in `sending` is claimed again (a repeat carries the same webhook-id), an
 * email or Slack one becomes `unknown` instead. Then sends and records the outcome, each write
 * fenced by the claim's sendToken (a later claim's run wins over this one's late answer).
 */
export async function runDelivery(deliveryId: string): Promise<DeliveryRun> {
  const { ALERTS_MAX_ATTEMPTS: maxAttempts, ALERTS_RETRY_BASE_MS: baseMs } = env();
  const [claimed] = await db().$queryRaw<{ channelId: string; workspaceId: string; message: AlertMessage; attempts: number; sendToken: string }[]>`
    UPDATE alert_deliveries d SET status = 'sending', attempts = d.attempts + 1, "nextAttemptAt" = NULL, "sendToken" = gen_random_uuid()
      FROM alert_channels c
     WHERE d.id = ${deliveryId}::uuid AND c.id = d."channelId" AND c."workspaceId" = d."workspaceId"
       AND (d.status = 'pending' OR (d.status = 'sending' AND c.kind = 'webhook'))
    RETURNING d."channelId", d."workspaceId", d.message, d.attempts, d."sendToken"::text AS "sendToken"`;
  if (!claimed) {
    const marked = await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'unknown', "endedAt" = now(), "lastError" = ${UNKNOWN_OUTCOME}
      WHERE id = ${deliveryId}::uuid AND status = 'sending'`;
    return marked ? "unknown" : "skipped";
  }
  const channel = await db().alertChannel.findFirst({ where: { id: claimed.channelId, workspaceId: claimed.workspaceId } });
  // Deleting a channel deletes its deliveries; a job may still find neither.
  if (!channel) return "skipped";

  const outcome: Outcome =
    claimed.attempts > maxAttempts
      ? { kind: "permanent", error: `Gave up after ${maxAttempts} attempts` }
      : await send(sendTarget(channel), claimed.message, deliveryId);
  const status = outcome.responseStatus ?? null;
  const token = claimed.sendToken;

  // 'unknown' too: another run may have judged this send lost while it was still under way; the
  // answer that came back after all is the better record.
  if (outcome.kind === "delivered") {
    await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'delivered', "deliveredAt" = now(), "endedAt" = now(), "responseStatus" = ${status}, "lastError" = NULL
      WHERE id = ${deliveryId}::uuid AND "sendToken" = ${token}::uuid AND status IN ('sending', 'unknown')`;
    return "delivered";
  }
  if (outcome.kind === "unknown") {
    await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'unknown', "endedAt" = now(), "responseStatus" = ${status}, "lastError" = ${`${outcome.error}. ${SENT_NO_ANSWER}`}
      WHERE id = ${deliveryId}::uuid AND "sendToken" = ${token}::uuid AND status IN ('sending', 'unknown')`;
    return "unknown";
  }
  if (outcome.kind === "permanent" || claimed.attempts >= maxAttempts) {
    await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'failed', "endedAt" = now(), "responseStatus" = ${status}, "lastError" = ${outcome.error}
      WHERE id = ${deliveryId}::uuid AND "sendToken" = ${token}::uuid AND status IN ('sending', 'unknown')`;
    return "failed";
  }
  const delayMs = retryDelayMs(claimed.attempts, baseMs);
  await transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE alert_deliveries SET status = 'pending', "endedAt" = NULL, "responseStatus" = ${status}, "lastError" = ${outcome.error},
        "nextAttemptAt" = now() + make_interval(secs => ${delayMs / 1000}::float8)
      WHERE id = ${deliveryId}::uuid AND "sendToken" = ${token}::uuid AND status IN ('sending', 'unknown')`;
    if (updated) await enqueueDeliveryJob(tx, deliveryId, delayMs);
  });
  return "retry";
}

/**
 * "Send again" in the delivery log, for a delivery whose outcome is unknown: the user has
 * checked (or accepts) that the receiver may get it twice. Back to pending with fresh attempts,
 * and its job, in one transaction. Does not authorize (the action checks canManageAlerts).
 */
export async function sendDeliveryAgain(workspaceId: string, deliveryId: string): Promise<void> {
  await transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status::text FROM alert_deliveries WHERE id = ${deliveryId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
    if (!row) throw new NotFoundError("This delivery does not exist in this workspace.");
    if (row.status !== "unknown") throw new ConflictError(`Only a delivery whose outcome is unknown can be sent again; this one is ${row.status}.`);
    await tx.$executeRaw`
      UPDATE alert_deliveries SET status = 'pending', "endedAt" = NULL, attempts = 0, "lastError" = NULL, "responseStatus" = NULL, "nextAttemptAt" = NULL, "sendToken" = NULL
      WHERE id = ${deliveryId}::uuid AND status = 'unknown'`;
    await enqueueDeliveryJob(tx, deliveryId);
  });
}

export type DeliveryRow = {
  id: string;
  createdAt: Date;
  channel: { id: string; name: string; kind: string };
  kind: AlertDeliveryKind;
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  responseStatus: number | null;
  lastError: string | null;
  message: AlertMessage;
};

/** The delivery log, newest first, a page at a time. Does not authorize. */
export async function listDeliveries(workspaceId: string, input: DeliveryListInput): Promise<{ rows: DeliveryRow[]; total: number; page: number; pageSize: number; pending: boolean }> {
  const where = { workspaceId, channelId: input.channelId, status: input.status };
  const [rows, total] = await Promise.all([
    db().alertDelivery.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (input.page - 1) * DELIVERY_PAGE_SIZE,
      take: DELIVERY_PAGE_SIZE,
      include: { channel: { select: { id: true, name: true, kind: true } } },
    }),
    db().alertDelivery.count({ where }),
  ]);
  await pausePoint("deliveries:between-reads");
  // Read after the rows (or beside them), the count may see a shown row's delivery end; pending
  // then also holds while a shown row is unfinished, so the page polls until its rows are final.
  const unfinished = await db().alertDelivery.count({ where: { workspaceId, status: { in: [...UNFINISHED_DELIVERY_STATUSES] } } });
  return {
    rows: rows.map((r) => {
      const message = r.message as unknown as AlertMessage;
      return { ...r, message, subject: message.subject };
    }),
    total,
    page: input.page,
    pageSize: DELIVERY_PAGE_SIZE,
    pending: unfinished > 0 || rows.some((r) => isUnfinishedDelivery(r.status)),
  };
}
