import "server-only";
import { db } from "@/lib/db/prisma";
import { savePartialAnswer } from "@/lib/lifecycle/results";

/** How often a worker looks for cancel requests of its running captures (cancel lands < 1 s). */
const POLL_MS = 250;
/** Partial answers are written at most this often per capture. */
const PARTIAL_FLUSH_MS = 1_000;

type Watched = {
  runToken: string;
  partial: string;
  dirty: boolean;
  lastFlush: number;
  onCancel: () => void;
  onLost: () => void;
};

/**
 * One loop per worker process for all its running captures: one query per tick finds cancel
 * requests (a flag in the database, set by any web replica) and captures whose run token moved
 * on (the sweeper gave them to another worker); partial answers are flushed on the same tick.
 */
class CaptureWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  register(captureId: string, entry: Pick<Watched, "runToken" | "onCancel" | "onLost">): () => Promise<void> {
    this.watched.set(captureId, { ...entry, partial: "", dirty: false, lastFlush: 0 });
    this.timer ??= setInterval(() => void this.tick(), POLL_MS);
    return async () => {
      this.watched.delete(captureId);
      if (!this.watched.size && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  appendText(captureId: string, delta: string) {
    const entry = this.watched.get(captureId);
    if (!entry) return;
    entry.partial += delta;
    entry.dirty = true;
  }

  partialText(captureId: string): string {
    return this.watched.get(captureId)?.partial ?? "";
  }

  private async tick() {
    if (this.ticking || !this.watched.size) return;
    this.ticking = true;
    try {
      const now = Date.now();
      await Promise.all(
        [...this.watched].map(async ([captureId, entry]) => {
          if (!entry.dirty || now - entry.lastFlush < PARTIAL_FLUSH_MS) return;
          entry.dirty = false;
          entry.lastFlush = now;
          if (!(await savePartialAnswer(captureId, entry.runToken, entry.partial))) entry.onLost();
        }),
      );
      const ids = [...this.watched.keys()];
      if (!ids.length) return;
      const rows = await db().capture.findMany({ where: { id: { in: ids } }, select: { id: true, runToken: true, cancelRequestedAt: true } });
      for (const row of rows) {
        const entry = this.watched.get(row.id);
        if (!entry) continue;
        if (row.runToken !== entry.runToken) entry.onLost();
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
