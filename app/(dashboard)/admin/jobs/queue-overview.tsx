"use client";
import type { ReactNode } from "react";
import { Badge, Card } from "@/components/ui/card";
import { ago, formatAge, relativeTo } from "@/lib/format";
import { useNow } from "./time";
import { useJobsOverviewQuery, type WorkerRow } from "./use-jobs-query";

const DEAD_SHOWN = 10;

function Stat({ label, value, hint }: { label: string; value: ReactNode; hint: string }) {
  return (
    <Card className="px-4 py-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
      <dd className="text-xs text-slate-500">{hint}</dd>
    </Card>
  );
}

function WorkerItem({ worker, now }: { worker: WorkerRow; now: number }) {
  // A clean exit ends the lease on purpose; an expired lease means the process vanished and
  // the sweeper has (or will) put its captures back in the queue.
  const badge = worker.alive ? <Badge tone="green">alive</Badge> : worker.status === "stopped" ? <Badge>stopped</Badge> : <Badge tone="red">lease expired</Badge>;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
      {badge}
      {worker.alive && <span className={worker.status === "draining" ? "font-medium text-amber-700" : "text-slate-700"}>{worker.status}</span>}
      {worker.hostname === null ? (
        // Machines' names are for operators (workersOverviewFor).
        <span className="font-medium text-slate-900">Worker {worker.workerId}</span>
      ) : (
        <span className="font-medium text-slate-900" title={`Worker ${worker.workerId}`}>
          {worker.hostname} <span className="font-normal text-slate-500">pid {worker.pid}</span>
        </span>
      )}
      <span className="text-slate-500">last seen {ago(worker.lastSeenAt, now)}</span>
      {worker.alive ? (
        <span className="text-slate-500">lease expires {relativeTo(worker.leaseExpiresAt, now)}</span>
      ) : worker.status === "stopped" ? (
        <span className="text-slate-500">stopped {ago(worker.leaseExpiresAt, now)}</span>
      ) : (
        <span className="text-red-700">lease expired {ago(worker.leaseExpiresAt, now)}</span>
      )}
    </li>
  );
}

function WorkersCard({ workers, now }: { workers: WorkerRow[]; now: number }) {
  const live = workers.filter((w) => w.alive);
  const dead = workers.filter((w) => !w.alive);
  return (
    <Card className="p-5">
      <h3 className="text-sm font-semibold text-slate-900">
        Workers <span className="font-normal text-slate-500">· {live.length} live</span>
      </h3>
      {live.length ? (
        <ul aria-label="Live workers" className="divide-y divide-slate-100">
          {live.map((w) => <WorkerItem key={w.workerId} worker={w} now={now} />)}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-amber-800">No worker holds a lease, so nothing runs. Start one with <code className="rounded bg-slate-100 px-1">npm run worker</code>.</p>
      )}
      {dead.length > 0 && (
        <>
          <h4 className="mt-4 text-xs font-medium uppercase tracking-wide text-slate-500">Stopped or lost in the last hour</h4>
          <ul aria-label="Stopped or lost workers" className="divide-y divide-slate-100">
            {dead.slice(0, DEAD_SHOWN).map((w) => <WorkerItem key={w.workerId} worker={w} now={now} />)}
          </ul>
          {dead.length > DEAD_SHOWN && <p className="mt-1 text-xs text-slate-500">and {dead.length - DEAD_SHOWN} more</p>}
        </>
      )}
    </Card>
  );
}

/** Queue depth of this workspace and the worker processes that drain it, refreshed every 2 s. */
export function QueueOverview() {
  const query = useJobsOverviewQuery();
  const now = useNow();
  const data = query.data;
  const value = (n: number | undefined) => (n === undefined ? <span className="text-slate-300">…</span> : n);
  const oldest = data?.queue.oldestWaitingSince;

  return (
    <section aria-labelledby="queue-heading" aria-busy={query.isPending} className="mb-6 space-y-3">
      <h2 id="queue-heading" className="sr-only">Queue and workers</h2>
      {query.isError && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          Could not load the queue{data ? " (showing the last known numbers)" : ""}: {query.error.message}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
        <Stat label="Waiting" value={value(data?.queue.queued)} hint="queued, ready to run" />
        <Stat label="Retry wait" value={value(data?.queue.retryWait)} hint="backing off after an error" />
        <Stat label="Postponed" value={value(data?.queue.postponed)} hint="provider's breaker is open" />
        <Stat label="Waiting for budget" value={value(data?.queue.waitingForBudget)} hint="this month's budget cannot cover the next call" />
        <Stat label="Running" value={value(data?.queue.running)} hint="held by a worker" />
        <Stat label="Oldest waiting" value={data ? (oldest ? formatAge(now - new Date(oldest).getTime()) : "—") : value(undefined)} hint={oldest ? "since it was due" : "nothing is due"} />
      </dl>
      {data ? (
        <WorkersCard workers={data.workers} now={now} />
      ) : (
        !query.isError && <Card className="p-5 text-sm text-slate-500">Loading workers…</Card>
      )}
    </section>
  );
}
