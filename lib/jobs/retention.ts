import "server-only";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";

const HEARTBEAT_RETENTION_DAYS = 7;

/**
 * Hourly housekeeping. graphile-worker deletes finished jobs by itself; here: attempts older than
 * the retention period (captures keep their answer, cost and results), idempotency keys past
 * their 24 h, heartbeat rows of workers long gone, raw crawler hits past BEACON_TRAFFIC_HIT_RETENTION_DAYS, and alert deliveries that ended (delivered,
 * failed, or unknown and never sent again) longer ago than theirs (a pending or sending one is
 * never removed: its job still refers to it). Each statement is idempotent, so two
 * workers running it at once (or twice) is harmless.
 */
export async function runRetention(options: { attemptRetentionDays: number; deliveryRetentionDays?: number; trafficHitRetentionDays?: number; now?: Date }) {
  const now = options.now ?? new Date();
  const day = 24 * 3600 * 1000;
  const attempts = await db().attempt.deleteMany({
    where: { startedAt: { lt: new Date(now.getTime() - options.attemptRetentionDays * day) }, outcome: { not: null } },
  });
  const keys = await db().check.updateMany({
    where: { idempotencyExpiresAt: { lt: now }, idempotencyKey: { not: null } },
    data: { idempotencyKey: null, requestHash: null },
  });
  const heartbeats = await db().workerHeartbeat.deleteMany({
    where: { status: { in: ["stopped", "expired"] }, lastSeenAt: { lt: new Date(now.getTime() - HEARTBEAT_RETENTION_DAYS * day) } },
  });
  const deliveryDays = options.deliveryRetentionDays ?? env().ALERTS_DELIVERY_RETENTION_DAYS;
  const deliveries = await db().alertDelivery.deleteMany({
    where: { status: { in: ["delivered", "failed", "unknown"] }, createdAt: { lt: new Date(now.getTime() - deliveryDays * day) } },
  });
  // The daily rollup (traffic_daily) keeps the counts of the raw hits deleted here.
  const trafficDays = options.trafficHitRetentionDays ?? env().BEACON_TRAFFIC_HIT_RETENTION_DAYS;
  const trafficHits = await db().trafficHit.deleteMany({ where: { day: { lt: new Date(now.getTime() - trafficDays * day) } } });
  return { trafficHitsDeleted: trafficHits.count, attemptsDeleted: attempts.count, idempotencyKeysExpired: keys.count, heartbeatsDeleted: heartbeats.count, deliveriesDeleted: deliveries.count };
}
