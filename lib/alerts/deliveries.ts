import "server-only";
import type { ChannelConfig, DeliveryListInput } from "@/lib/alerts/channel-schemas";
import { DELIVERY_PAGE_SIZE } from "@/lib/alerts/channel-schemas";
import { renderFiring, renderTest, type AlertMessage } from "@/lib/alerts/messages";
import { retryDelayMs, type Outcome } from "@/lib/alerts/retry";
import { send, type SendTarget } from "@/lib/alerts/send";
import { env, publicUrl } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError } from "@/lib/errors";
import { Prisma, type AlertDeliveryKind } from "@/lib/generated/prisma/client";
import { jobCatalog } from "@/lib/jobs/catalog";

// Deliveries: one message to one channel. The row and its deliver_alert job are created in one
// transaction, so a delivery exists exactly when its job does. The row is the truth: a job that
// finds its delivery no longer pending does nothing, so a delivered message is never sent again.
//
// Lifecycle: pending --send ok--> delivered; pending --permanent error, or attempts used up-->
// failed; pending --transient error--> pending with nextAttemptAt, its job re-enqueued for then.

type Tx = Prisma.TransactionClient;

/** Enqueues the deliver_alert job of a delivery, `delayMs` after the database's now. */
async function enqueueDeliveryJob(tx: Pick<Tx, "$executeRaw">, deliveryId: string, delayMs = 0): Promise<void> {
  const job = jobCatalog.deliver_alert;
  const payload = job.payload.parse({ deliveryId });
  await tx.$executeRaw`
    SELECT graphile_worker.add_job('deliver_alert', ${JSON.stringify(payload)}::json,
      run_at => now() + make_interval(secs => ${delayMs / 1000}::float8),
      max_attempts => ${job.maxAttempts}::int, job_key => ${job.jobKey(payload)})`;
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
    include: { rule: { include: { brand: { select: { id: true, name: true } }, channels: { include: { channel: { select: { id: true, workspaceId: true } } } } } } },
  });
  const message = renderFiring({ firing, rule: firing.rule, brand: firing.rule.brand, appUrl: publicUrl() });
  // A channel of another workspace cannot be linked to a rule through the app; never send to one.
  const channels = firing.rule.channels.map((rc) => rc.channel).filter((c) => c.workspaceId === firing.workspaceId);
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

export type DeliveryRun = "delivered" | "failed" | "retry" | "skipped";

/**
 * One attempt at a delivery (the deliver_alert task). Claims the attempt first (attempts + 1,
 * only while pending), so a worker that dies mid-send has spent an attempt and graphile-worker's
 * retry of the job tries again; then sends and records the outcome, each write guarded by
 * status = 'pending'.
 */
export async function runDelivery(deliveryId: string): Promise<DeliveryRun> {
  const { ALERTS_MAX_ATTEMPTS: maxAttempts, ALERTS_RETRY_BASE_MS: baseMs } = env();
  const [claimed] = await db().$queryRaw<{ channelId: string; workspaceId: string; message: AlertMessage; attempts: number }[]>`
    UPDATE alert_deliveries SET attempts = attempts + 1, "nextAttemptAt" = NULL
    WHERE id = ${deliveryId}::uuid AND status = 'pending'
    RETURNING "channelId", "workspaceId", message, attempts`;
  if (!claimed) return "skipped";
  const channel = await db().alertChannel.findFirst({ where: { id: claimed.channelId, workspaceId: claimed.workspaceId } });
  // Deleting a channel deletes its deliveries; a job may still find neither.
  if (!channel) return "skipped";

  const outcome: Outcome =
    claimed.attempts > maxAttempts
      ? { kind: "permanent", error: `Gave up after ${maxAttempts} attempts` }
      : await send(sendTarget(channel), claimed.message, deliveryId);
  const status = outcome.responseStatus ?? null;

  if (outcome.kind === "delivered") {
    await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'delivered', "deliveredAt" = now(), "responseStatus" = ${status}, "lastError" = NULL
      WHERE id = ${deliveryId}::uuid AND status = 'pending'`;
    return "delivered";
  }
  if (outcome.kind === "permanent" || claimed.attempts >= maxAttempts) {
    await db().$executeRaw`
      UPDATE alert_deliveries SET status = 'failed', "responseStatus" = ${status}, "lastError" = ${outcome.error}
      WHERE id = ${deliveryId}::uuid AND status = 'pending'`;
    return "failed";
  }
  const delayMs = retryDelayMs(claimed.attempts, baseMs);
  await transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE alert_deliveries SET "responseStatus" = ${status}, "lastError" = ${outcome.error},
        "nextAttemptAt" = now() + make_interval(secs => ${delayMs / 1000}::float8)
      WHERE id = ${deliveryId}::uuid AND status = 'pending'`;
    if (updated) await enqueueDeliveryJob(tx, deliveryId, delayMs);
  });
  return "retry";
}

export type DeliveryRow = {
  id: string;
  createdAt: Date;
  channel: { id: string; name: string; kind: string };
  kind: AlertDeliveryKind;
  subject: string;
  status: "pending" | "delivered" | "failed";
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
  const [rows, total, pending] = await Promise.all([
    db().alertDelivery.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (input.page - 1) * DELIVERY_PAGE_SIZE,
      take: DELIVERY_PAGE_SIZE,
      include: { channel: { select: { id: true, name: true, kind: true } } },
    }),
    db().alertDelivery.count({ where }),
    db().alertDelivery.count({ where: { workspaceId, status: "pending" } }),
  ]);
  return {
    rows: rows.map((r) => {
      const message = r.message as unknown as AlertMessage;
      return { ...r, message, subject: message.subject };
    }),
    total,
    page: input.page,
    pageSize: DELIVERY_PAGE_SIZE,
    pending: pending > 0,
  };
}
