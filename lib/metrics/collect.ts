import "server-only";
import { databaseNow } from "@/lib/db/clock";
import { CHANNEL_KINDS, ENDED_DELIVERY_STATUSES } from "@/lib/alerts/channel-schemas";
import { AggregatorRegistry, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from "prom-client";
import { OPEN_TOO_LONG_SECONDS } from "@/lib/breaker/queries";
import { REPAIR_KINDS } from "@/lib/lifecycle/repair";
import { db } from "@/lib/db/prisma";
import { readCounters } from "@/lib/metrics/counters";

const BREAKER_STATE = { closed: 0, open: 1, half_open: 2 } as const;
const ATTEMPT_OUTCOMES = ["running", "succeeded", "failed", "unknown", "cancelled"] as const;

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/**
 * The DESIGN.md metric set, read from the database at scrape time so that any web replica
 * answers for the whole system, plus the live workers' own measurements (queue wait and
 * execution histograms) from their heartbeat snapshots, labelled by worker. A scrape reads
 * counters, breakers and heartbeats: small tables, never captures, attempts or events.
 */
export async function collectMetrics(): Promise<{ contentType: string; body: string }> {
  // Breakers' open time and workers' leases by the database's clock, which set them.
  const now = await databaseNow();
  const registry = new Registry();
  const counter = (name: string, help: string, labelNames: string[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });

  // Kept by database triggers (lib/metrics/counters.ts): counters survive restarts, cover every
  // worker, and cost the same to read whatever the size of the history.
  const counts = await readCounters();
  counter("beacon_jobs_created_total", "Captures created (one per prompt x provider x sample).").inc(counts.captures.created);
  counter("beacon_jobs_accepted_total", "Captures that succeeded and were accepted.").inc(counts.captures.accepted);
  counter("beacon_lease_expired_total", "Attempts whose worker died; outcome unknown, reason lease_expired.").inc(
    counts.attempts.reduce((sum, a) => sum + a.leaseExpired, 0),
  );

  const providerAttempts = counter("beacon_provider_attempts_total", "Provider calls (attempts), by outcome (running: in flight now).", ["provider", "outcome"]);
  const unknown = counter("beacon_provider_unknown_outcomes_total", "Attempts whose outcome (and billing) is unknown.", ["provider"]);
  for (const row of counts.attempts) {
    for (const outcome of ATTEMPT_OUTCOMES) providerAttempts.inc({ provider: row.provider, outcome }, row[outcome]);
    unknown.inc({ provider: row.provider }, row.unknown);
  }

  const { attempts, retries } = counts.lastHour;
  gauge("beacon_job_retry_rate", "Share of attempts in the last hour that were retries.").set(attempts ? retries / attempts : 0);
  const { accepted, costMicros } = counts.lastDay;
  gauge("beacon_cost_per_accepted_job_usd", "Average cost of an accepted capture over the last 24 hours, USD.").set(accepted ? costMicros / accepted / 1e6 : 0);

  gauge("beacon_captures_waiting", "Captures waiting to run (queued, retry wait, postponed).").set(counts.captures.waiting);
  gauge("beacon_captures_waiting_for_budget", "Captures postponed because the monthly budget cannot cover their next call.").set(counts.captures.waitingForBudget);
  gauge("beacon_captures_running", "Captures whose provider call is in flight.").set(counts.captures.running);

  const repaired = counter("beacon_lifecycle_repairs_total", "Impossible or abandoned capture states found and repaired, by kind (0 in a healthy system).", ["kind"]);
  for (const kind of [...REPAIR_KINDS, "abandoned_attempt", "stranded_job"]) repaired.inc({ kind }, 0);
  for (const { kind, count } of counts.repairs) repaired.inc({ kind }, count);

  const deliveries = counter("beacon_alert_deliveries_total", "Alert deliveries (firings, tests, digests) by channel kind and outcome: delivered, failed, retried (put back to wait for another attempt), unknown (a send that may have arrived, never recorded; not resent by itself).", [
    "channel_kind",
    "outcome",
  ]);
  for (const channel_kind of CHANNEL_KINDS) for (const outcome of [...ENDED_DELIVERY_STATUSES, "retried"]) deliveries.inc({ channel_kind, outcome }, 0);
  for (const { channelKind, outcome, count } of counts.alertDeliveries) deliveries.inc({ channel_kind: channelKind, outcome }, count);

  // One breaker per connection and model (labelled provider = the connection's name, and model).
  const breakers = await db().$queryRaw<Row[]>`
    SELECT pc.name AS provider, b.model, coalesce(b."forcedStatus", b.status)::text AS status, b."openedAt" AS opened_at, b."successCount" AS success, b."failureCount" AS failure, b."shortCircuitCount" AS short_circuit
    FROM breaker_states b JOIN provider_connections pc ON pc.id = b."connectionId"`;
  const state = gauge("beacon_breaker_state", "Circuit breaker state: 0 closed, 1 open, 2 half-open.", ["provider", "model"]);
  const calls = counter("beacon_breaker_calls_total", "Calls seen by the breaker, by outcome.", ["provider", "model", "outcome"]);
  const openFor = gauge("beacon_breaker_open_duration_seconds", "How long the breaker has been open (0 when closed).", ["provider", "model"]);
  const tooLong = gauge("beacon_breaker_open_too_long", "1 when the breaker has been open for more than 5 minutes.", ["provider", "model"]);
  for (const row of breakers) {
    const labels = { provider: String(row.provider), model: String(row.model) };
    const status = String(row.status) as keyof typeof BREAKER_STATE;
    state.set(labels, BREAKER_STATE[status] ?? 0);
    calls.inc({ ...labels, outcome: "success" }, num(row.success));
    calls.inc({ ...labels, outcome: "failure" }, num(row.failure));
    calls.inc({ ...labels, outcome: "short_circuit" }, num(row.short_circuit));
    const seconds = status !== "closed" && row.opened_at ? (now.getTime() - (row.opened_at as Date).getTime()) / 1000 : 0;
    openFor.set(labels, seconds);
    tooLong.set(labels, seconds > OPEN_TOO_LONG_SECONDS ? 1 : 0);
  }

  const workers = await db().workerHeartbeat.findMany({
    where: { status: { in: ["running", "draining"] }, leaseExpiresAt: { gt: now }, metrics: { not: null } },
    select: { metrics: true },
  });
  const snapshots = workers.flatMap((w) => {
    try {
      return [JSON.parse(w.metrics!) as MetricObjectWithValues<MetricValue<string>>[]];
    } catch {
      return [];
    }
  });
  gauge("beacon_workers_alive", "Worker processes holding a lease.").set(workers.length);
  const merged = snapshots.length ? Registry.merge([registry, AggregatorRegistry.aggregate(snapshots)]) : registry;
  return { contentType: merged.contentType, body: await merged.metrics() };
}
