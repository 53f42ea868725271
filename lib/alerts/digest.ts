import "server-only";
import { databaseNow } from "@/lib/db/clock";
import { createDelivery } from "@/lib/alerts/deliveries";
import { renderDigest, type DigestBrand } from "@/lib/alerts/messages";
import type { OverviewKpis } from "@/lib/analytics/kpis";
import { readChart } from "@/lib/analytics/read-chart";
import { publicUrl } from "@/lib/config/env";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError } from "@/lib/errors";

// The weekly digest: every Monday (catalog cron), one 'digest' delivery to each email channel of
// each workspace that has one, with the past week's numbers per brand read through the KPIs chart
// (the dashboards' own query), so the email and the dashboard agree. Idempotent per channel and
// week: the digest key in the message, checked under a per-workspace lock before inserting.

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The last full Monday-to-Sunday week (UTC) before `now`, as inclusive days. */
export function digestWeek(now: Date): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  return { from: isoDay(new Date(monday - 7 * DAY_MS)), to: isoDay(new Date(monday - DAY_MS)) };
}

async function brandNumbers(workspaceId: string, week: { from: string; to: string }): Promise<DigestBrand[]> {
  const brands = await db().brand.findMany({ where: { workspaceId }, orderBy: { name: "asc" }, select: { id: true, name: true } });
  await pausePoint("digest:brands-read", { workspaceId });
  const result: DigestBrand[] = [];
  for (const brand of brands) {
    let k: OverviewKpis;
    try {
      k = (await readChart(workspaceId, "kpis", new URLSearchParams({ brand: brand.id, from: week.from, to: week.to }))) as OverviewKpis;
    } catch (error) {
      // Deleted since it was listed (the Brands page): the digest goes without it.
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    result.push({ id: brand.id, name: brand.name, captures: k.captures, previousCaptures: k.previousCaptures, visibility: k.visibility, shareOfVoice: k.shareOfVoice, averagePosition: k.averagePosition });
  }
  return result;
}

/**
 * Creates the week's digest deliveries that do not exist yet; returns how many it created. The
 * week is that of `now`, by default the database's clock (the week is the digest's dedupe key).
 */
export async function enqueueWeeklyDigests(at?: Date): Promise<number> {
  const now = at ?? (await databaseNow());
  const week = digestWeek(now);
  const workspaces = await db().workspace.findMany({ where: { alertChannels: { some: { kind: "email" } } }, select: { id: true, name: true } });
  let created = 0;
  // One workspace's failure does not hold the others' digests back; the job fails after them all
  // (graphile-worker runs it again; the digest key keeps the ones made from being made twice).
  const failures: unknown[] = [];
  for (const workspace of workspaces) {
    try {
      created += await enqueueDigest(workspace, week, now);
    } catch (error) {
      console.error(`[digest] workspace ${workspace.id}: the week's digest failed:`, error);
      failures.push(error);
    }
  }
  if (failures.length) throw new AggregateError(failures, `The weekly digest failed for ${failures.length} of ${workspaces.length} workspaces (each logged above).`);
  return created;
}

/** One workspace's digests: one per email channel that has none for the week yet. */
async function enqueueDigest(workspace: { id: string; name: string }, week: { from: string; to: string }, now: Date): Promise<number> {
  const digestKey = `digest:${week.from}`;
  // A run again (a retry of the job after another workspace failed): nothing to read for a
  // workspace every email channel of which has the week's digest (checked again under the lock).
  const waiting = await db().alertChannel.count({
    where: { workspaceId: workspace.id, kind: "email", deliveries: { none: { kind: "digest", message: { path: ["digestKey"], equals: digestKey } } } },
  });
  if (!waiting) return 0;
  const brands = await brandNumbers(workspace.id, week);
  const message = { ...renderDigest({ workspace, week, brands, appUrl: publicUrl(), at: now }), digestKey };
  return transaction(async (tx) => {
    // Two workers running the cron at once wait here; the second finds the first's rows.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`alert_digest:${workspace.id}`}))`;
    // Key-share locked, as a firing's deliveries lock them: a channel being deleted is waited for
    // (then not found), not given a delivery its delete has just made impossible.
    const channels = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM alert_channels WHERE "workspaceId" = ${workspace.id}::uuid AND kind = 'email' ORDER BY id FOR KEY SHARE`;
    let n = 0;
    for (const channel of channels) {
      const sent = await tx.alertDelivery.count({ where: { workspaceId: workspace.id, channelId: channel.id, kind: "digest", message: { path: ["digestKey"], equals: digestKey } } });
      if (sent) continue;
      await createDelivery(tx, { workspaceId: workspace.id, channelId: channel.id, kind: "digest", message });
      n += 1;
    }
    return n;
  });
}
