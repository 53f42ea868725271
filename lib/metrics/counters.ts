import "server-only";
import { WAITING_STATUSES, type CaptureStatus } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";

// The counters the database keeps for /api/metrics (triggers of migration 20261130134000 on
// captures, attempts and events, summed over their shards here; of 20261204150000 on alert
// deliveries). Reading them costs the same
// whatever the size of the history: a few hundred small rows, no scan of captures, attempts or
// events.

export type AttemptCounts = { provider: string; running: number; succeeded: number; failed: number; unknown: number; cancelled: number; leaseExpired: number };

export type MetricCounters = {
  captures: { created: number; accepted: number; waiting: number; waitingForBudget: number; running: number };
  attempts: AttemptCounts[];
  /** Attempts started in the last hour (whole minutes, the current one included), and how many were retries. */
  lastHour: { attempts: number; retries: number };
  /** Captures accepted in the last 24 hours (whole hours, the current one included) and their cost. */
  lastDay: { accepted: number; costMicros: number };
  repairs: { kind: string; count: number }[];
  /** Alert deliveries by channel kind: delivered, failed, and put back for a retry. */
  alertDeliveries: { channelKind: string; outcome: string; count: number }[];
};

const num = (v: bigint | number | null | undefined) => Number(v ?? 0);

/** The capture-count column of each waiting status. */
const WAITING_COLUMN = { queued: "queued", retry_wait: "retryWait", postponed: "postponed" } as const satisfies Partial<Record<CaptureStatus, string>>;

export async function readCounters(): Promise<MetricCounters> {
  const [captures, attempts, [windows], repairs, alertDeliveries] = await Promise.all([
    db().metricCaptureCounts.aggregate({
      _sum: { created: true, accepted: true, queued: true, retryWait: true, postponed: true, waitingForBudget: true, running: true },
    }),
    db().metricAttemptCounts.groupBy({
      by: ["provider"],
      _sum: { running: true, succeeded: true, failed: true, unknown: true, cancelled: true, leaseExpired: true },
      orderBy: { provider: "asc" },
    }),
    // The windows by the database's clock, the one the triggers bucket by.
    db().$queryRaw<{ attempts: bigint; retries: bigint; accepted: bigint; costMicros: bigint }[]>`
      SELECT (SELECT coalesce(sum(attempts), 0)::bigint FROM metric_attempt_minutes
              WHERE "startsAt" >= date_trunc('minute', (now() AT TIME ZONE 'UTC') - interval '1 hour')) AS attempts,
             (SELECT coalesce(sum(retries), 0)::bigint FROM metric_attempt_minutes
              WHERE "startsAt" >= date_trunc('minute', (now() AT TIME ZONE 'UTC') - interval '1 hour')) AS retries,
             (SELECT coalesce(sum(accepted), 0)::bigint FROM metric_accepted_hours
              WHERE "startsAt" >= date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '24 hours')) AS accepted,
             (SELECT coalesce(sum("costMicros"), 0)::bigint FROM metric_accepted_hours
              WHERE "startsAt" >= date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '24 hours')) AS "costMicros"`,
    db().metricRepairCounts.findMany({ orderBy: { kind: "asc" } }),
    db().metricAlertDeliveryCounts.findMany({ orderBy: [{ channelKind: "asc" }, { outcome: "asc" }] }),
  ]);
  const sum = captures._sum;
  return {
    captures: {
      created: num(sum.created),
      accepted: num(sum.accepted),
      waiting: WAITING_STATUSES.reduce((total, status) => total + num(sum[WAITING_COLUMN[status]]), 0),
      waitingForBudget: num(sum.waitingForBudget),
      running: num(sum.running),
    },
    attempts: attempts.map((row) => ({
      provider: row.provider,
      running: num(row._sum.running),
      succeeded: num(row._sum.succeeded),
      failed: num(row._sum.failed),
      unknown: num(row._sum.unknown),
      cancelled: num(row._sum.cancelled),
      leaseExpired: num(row._sum.leaseExpired),
    })),
    lastHour: { attempts: num(windows?.attempts), retries: num(windows?.retries) },
    lastDay: { accepted: num(windows?.accepted), costMicros: num(windows?.costMicros) },
    repairs: repairs.map((row) => ({ kind: row.kind, count: num(row.count) })),
    alertDeliveries: alertDeliveries.map((row) => ({ channelKind: row.channelKind, outcome: row.outcome, count: num(row.count) })),
  };
}
