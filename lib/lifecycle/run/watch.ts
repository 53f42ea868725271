import "server-only";
import { db } from "@/lib/db/prisma";
import { savePartialAnswer } from "@/lib/lifecycle/results";

/** How often a worker looks for cancel requests of its running captures (cancel lands < 1 s). */
const POLL_MS = 250;
/** Partial answers are written at most this often per capture. */
const PARTIAL_FLUSH_MS = 1_000;

type Watched = {
  captureId: string;
  partial: string;
  dirty: boolean;
  lastFlush: number;
  onCancel: () => void;
  onLost: () => void;
};

/** One run's handle: its streamed text, and `end` when its call is over. */
export type WatchedRun = { append(delta: string): void; partial(): string; end(): Promise<void> };

/**
 * One loop per worker process for all its running captures: one query per tick finds cancel
 * requests (a flag in the database, set by any web replica) and captures whose run token moved
 * on (the sweeper gave them to another worker); partial answers are flushed on the same tick.
 * Runs are kept by run token, not capture: a worker cut off past its lease may claim a capture
 * the sweeper handed on while its first call still streams, and each run must keep its own text
 * and hear its own cancel.
 */
class CaptureWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  register(captureId: string, { runToken, onCancel, onLost }: { runToken: string; onCancel: () => void; onLost: () => void }): WatchedRun {
    const entry: Watched = { captureId, partial: "", dirty: false, lastFlush: 0, onCancel, onLost };
    this.watched.set(runToken, entry);
    this.timer ??= setInterval(() => void this.tick(), POLL_MS);
    return {
      append: (delta) => {
        entry.partial += delta;
        entry.dirty = true;
      },
      partial: () => entry.partial,
      end: async () => {
        this.watched.delete(runToken);
        if (!this.watched.size && this.timer) {
          clearInterval(this.timer);
          this.timer = null;
        }
      },
    };
  }

  private async tick() {
    if (this.ticking || !this.watched.size) return;
    this.ticking = true;
    try {
      const now = Date.now();
      await Promise.all(
        [...this.watched].map(async ([runToken, entry]) => {
          if (!entry.dirty || now - entry.lastFlush < PARTIAL_FLUSH_MS) return;
          entry.dirty = false;
          entry.lastFlush = now;
          if (!(await savePartialAnswer(entry.captureId, runToken, entry.partial))) entry.onLost();
        }),
      );
      const runs = [...this.watched];
      if (!runs.length) return;
      const rows = await db().capture.findMany({ where: { id: { in: [...new Set(runs.map(([, e]) => e.captureId))] } }, select: { id: true, runToken: true, cancelRequestedAt: true } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const [runToken, entry] of runs) {
        const row = byId.get(entry.captureId);
        if (!row || !this.watched.has(runToken)) continue;
        if (row.runToken !== runToken) entry.onLost();
        else if (row.cancelRequestedAt) entry.onCancel();
      }
    } catch {
      // The database may be briefly unreachable; the next tick tries again and the lease covers us.
    } finally {
      this.ticking = false;
    }
  }
}

const globalForWatch = globalThis as unknown as { beaconCaptureWatch?: CaptureWatch };
export const captureWatch = (globalForWatch.beaconCaptureWatch ??= new CaptureWatch());
