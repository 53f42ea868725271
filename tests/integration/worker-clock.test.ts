// graphile-worker's cron stamps each crontab's last run with the clock of the worker that ran it,
// and a worker adds a slot's job only when that mark is earlier than the slot (the upsert below is
// graphile-worker 0.17.3's, dist/cron.js). A worker whose clock ran two hours ahead leaves a mark
// two hours in the future: every worker's slot is refused until then, and recurring work
// (schedules, alert evaluations, retention, digests) stops. The repair pass sets such marks back.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { resetFutureCronMarks } from "@/lib/worker/clock";
import { waitFor } from "../support/wait-for";
import { startWorker } from "../support/worker-process";

const identifier = (name: string) => `clock-test-${name}-${Math.random().toString(36).slice(2, 8)}`;

/** graphile-worker's claim of a cron slot: true when this worker may add the slot's job. */
async function claimSlot(id: string, slot: Date): Promise<boolean> {
  const rows = await db().$queryRaw<{ identifier: string }[]>`
    INSERT INTO graphile_worker._private_known_crontabs AS known_crontabs (identifier, known_since, last_execution)
    VALUES (${id}, ${slot}::timestamptz, ${slot}::timestamptz)
    ON CONFLICT (identifier) DO UPDATE SET last_execution = excluded.last_execution
    WHERE (known_crontabs.last_execution IS NULL OR known_crontabs.last_execution < excluded.last_execution)
    RETURNING known_crontabs.identifier`;
  return rows.length === 1;
}

const minuteAfter = (date: Date, minutes: number) => new Date((Math.floor(date.getTime() / 60_000) + minutes) * 60_000);

describe("cron marks a fast worker left in the future", () => {
  it("are set back to now by the repair pass's check, so the next slot runs again; a mark within a minute is left", async () => {
    const [{ now }] = (await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`) as [{ now: Date }];
    const ahead = identifier("ahead");
    const close = identifier("close");
    // A worker two hours fast ran both; another's clock is only seconds off.
    expect(await claimSlot(ahead, minuteAfter(now, 120))).toBe(true);
    expect(await claimSlot(close, new Date(now.getTime() + 20_000))).toBe(true);
    // A worker with the right time cannot run the next slot: the mark is later.
    expect(await claimSlot(ahead, minuteAfter(now, 1))).toBe(false);

    const moved = await resetFutureCronMarks();

    expect(moved).toContain(ahead);
    expect(moved).not.toContain(close);
    expect(await claimSlot(ahead, minuteAfter(now, 1)), "the next slot runs").toBe(true);
    expect(await claimSlot(ahead, minuteAfter(now, 1)), "once").toBe(false);
    expect(await resetFutureCronMarks()).not.toContain(ahead);
  });

  it("are set back by a worker as it starts (its repair pass), so schedules run again", async () => {
    // The schedules cron's mark, left two hours ahead by a worker whose clock was.
    await db().$executeRaw`
      INSERT INTO graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      VALUES ('schedules', now(), now() + interval '2 hours')
      ON CONFLICT (identifier) DO UPDATE SET last_execution = excluded.last_execution`;
    const worker = await startWorker("clock-check");
    await worker.waitForLine(/cron marks in the future .* set back to now: .*schedules/, 30_000);
    const [mark] = await db().$queryRaw<{ ahead: boolean }[]>`
      SELECT last_execution > now() + interval '1 minute' AS ahead FROM graphile_worker._private_known_crontabs WHERE identifier = 'schedules'`;
    expect(mark!.ahead).toBe(false);
    await worker.stop();
  });
});

describe("a daily job whose minute no worker was up for", () => {
  it("runs when a worker starts, within the day (the daily alert pass; minutely jobs just wait for their next slot)", async () => {
    // The daily pass last ran two days ago: yesterday's or today's 06:07 passed with no worker up.
    await db().$executeRaw`
      INSERT INTO graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      VALUES ('alerts_daily', now() - interval '3 days', now() - interval '2 days')
      ON CONFLICT (identifier) DO UPDATE SET known_since = excluded.known_since, last_execution = excluded.last_execution`;
    const worker = await startWorker("cron-backfill");
    const [slot] = await db().$queryRaw<{ at: Date }[]>`
      SELECT date_trunc('day', now() AT TIME ZONE 'UTC' - interval '6 hours 7 minutes') + interval '6 hours 7 minutes' AS at`;
    const ran = await waitFor(
      async () => {
        const [mark] = await db().$queryRaw<{ last: Date }[]>`SELECT last_execution AT TIME ZONE 'UTC' AS last FROM graphile_worker._private_known_crontabs WHERE identifier = 'alerts_daily'`;
        return mark && mark.last >= slot!.at ? mark : undefined;
      },
      { what: "the missed daily pass to be added", timeoutMs: 30_000, intervalMs: 100, details: () => worker.output() },
    );
    expect(ran.last.getTime()).toBe(slot!.at.getTime());
    await worker.stop();
  });
});
