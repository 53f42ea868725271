import "server-only";
import { AggregatorRegistry, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from "prom-client";
import { OPEN_TOO_LONG_SECONDS } from "@/lib/breaker/queries";
import { REPAIR_EVENT } from "@/lib/captures/lifecycle/lease";
import { REPAIR_KINDS } from "@/lib/captures/lifecycle/repair";
import { UNFINISHED_STATUSES, WAITING_STATUSES } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";

const BREAKER_STATE = { closed: 0, open: 1, half_open: 2 } as const;

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/**
 * The DESIGN.md metric set, read from the database at scrape time so that any web replica
 * answers for the whole system, plus the live workers' own measurements (queue wait and
 * execution histograms) from their heartbeat snapshots, labelled by worker.
 */
export async function collectMetrics(): Promise<{ contentType: string; body: string }> {
  const registry = new Registry();
  const counter = (name: string, help: string, labelNames: string[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });

  const [totals] = await db().$queryRaw<Row[]>`
    SELECT (SELECT count(*) FROM captures) AS created,
           (SELECT count(*) FROM captures WHERE status = 'succeeded') AS accepted,
           (SELECT count(*) FROM attempts WHERE reason = 'lease_expired') AS lease_expired`;
  counter("beacon_jobs_created_total", "Captures created (one per prompt x provider x sample).").inc(num(totals?.created));
  counter("beacon_jobs_accepted_total", "Captures that succeeded and were accepted.").inc(num(totals?.accepted));
  counter("beacon_lease_expired_total", "Attempts whose worker died; outcome unknown, reason lease_expired.").inc(num(totals?.lease_expired));

  const attempts = await db().$queryRaw<Row[]>`
    SELECT pc.name AS provider, coalesce(a.outcome::text, 'running') AS outcome, count(*) AS n
    FROM attempts a JOIN captures c ON c.id = a."captureId" JOIN provider_configs pc ON pc.id = c."providerConfigId"
    GROUP BY 1, 2`;
  const providerAttempts = counter("beacon_provider_attempts_total", "Provider calls (attempts), by outcome.", ["provider", "outcome"]);
  const unknown = counter("beacon_provider_unknown_outcomes_total", "Attempts whose outcome (and billing) is unknown.", ["provider"]);
  for (const row of attempts) {
    providerAttempts.inc({ provider: String(row.provider), outcome: String(row.outcome) }, num(row.n));
    if (row.outcome === "unknown") unknown.inc({ provider: String(row.provider) }, num(row.n));
  }

  const [recent] = await db().$queryRaw<Row[]>`
    SELECT count(*) AS attempts, count(*) FILTER (WHERE number > 1) AS retries
    FROM attempts WHERE "startedAt" > now() - interval '1 hour'`;
  gauge("beacon_job_retry_rate", "Share of attempts in the last hour that were retries.").set(num(recent?.attempts) ? num(recent?.retries) / num(recent?.attempts) : 0);

  const [cost] = await db().$queryRaw<Row[]>`
    SELECT coalesce(sum("costMicros"), 0) AS micros, count(*) AS n FROM captures
    WHERE status = 'succeeded' AND "finishedAt" > now() - interval '24 hours'`;
  gauge("beacon_cost_per_accepted_job_usd", "Average cost of an accepted capture over the last 24 hours, USD.").set(num(cost?.n) ? num(cost?.micros) / num(cost?.n) / 1e6 : 0);

  const [queue] = await db().$queryRaw<Row[]>`
    SELECT count(*) FILTER (WHERE status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])) AS waiting,
           count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget') AS waiting_for_budget,
           count(*) FILTER (WHERE status = 'running') AS running
    FROM captures WHERE status = ANY(${[...UNFINISHED_STATUSES]}::"CaptureStatus"[])`;
  gauge("beacon_captures_waiting", "Captures waiting to run (queued, retry wait, postponed).").set(num(queue?.waiting));
  gauge("beacon_captures_waiting_for_budget", "Captures postponed because the monthly budget cannot cover their next call.").set(num(queue?.waiting_for_budget));
  gauge("beacon_captures_running", "Captures whose provider call is in flight.").set(num(queue?.running));

  // Kept as events, so the count survives restarts and covers every worker that repaired.
  const repairs = await db().$queryRaw<Row[]>`
    SELECT data->>'kind' AS kind, count(*) AS n FROM events WHERE kind = ${REPAIR_EVENT} GROUP BY 1`;
  const repaired = counter("beacon_lifecycle_repairs_total", "Impossible or abandoned capture states found and repaired, by kind (0 in a healthy system).", ["kind"]);
  for (const kind of [...REPAIR_KINDS, "abandoned_attempt"]) repaired.inc({ kind }, 0);
  for (const row of repairs) repaired.inc({ kind: String(row.kind) }, num(row.n));

  const breakers = await db().$queryRaw<Row[]>`
    SELECT pc.name AS provider, coalesce(b."forcedStatus", b.status)::text AS status, b."openedAt" AS opened_at, b."successCount" AS success, b."failureCount" AS failure, b."shortCircuitCount" AS short_circuit
    FROM breaker_states b JOIN provider_configs pc ON pc.id = b."providerConfigId"`;
  const state = gauge("beacon_breaker_state", "Circuit breaker state: 0 closed, 1 open, 2 half-open.", ["provider"]);
  const calls = counter("beacon_breaker_calls_total", "Calls seen by the breaker, by outcome.", ["provider", "outcome"]);
  const openFor = gauge("beacon_breaker_open_duration_seconds", "How long the breaker has been open (0 when closed).", ["provider"]);
  const tooLong = gauge("beacon_breaker_open_too_long", "1 when the breaker has been open for more than 5 minutes.", ["provider"]);
  for (const row of breakers) {
    const provider = String(row.provider);
    const status = String(row.status) as keyof typeof BREAKER_STATE;
    state.set({ provider }, BREAKER_STATE[status] ?? 0);
    calls.inc({ provider, outcome: "success" }, num(row.success));
    calls.inc({ provider, outcome: "failure" }, num(row.failure));
    calls.inc({ provider, outcome: "short_circuit" }, num(row.short_circuit));
    const seconds = status !== "closed" && row.opened_at ? (Date.now() - (row.opened_at as Date).getTime()) / 1000 : 0;
    openFor.set({ provider }, seconds);
    tooLong.set({ provider }, seconds > OPEN_TOO_LONG_SECONDS ? 1 : 0);
  }

  const workers = await db().workerHeartbeat.findMany({
    where: { status: { in: ["running", "draining"] }, leaseExpiresAt: { gt: new Date() }, metrics: { not: null } },
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
