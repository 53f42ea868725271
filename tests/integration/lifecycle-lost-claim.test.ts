// A claim whose connection is lost while its statement waits for a lock. The worker sees
// "Connection terminated" at once, but the backend goes on: once the lock frees, the claim (one
// autocommit statement, beacon_claim) commits, with the worker's run token and an open attempt.
// A worker that then asked "did my claim commit?" without waiting for it read "no", gave its run
// token up and let the job fail; the capture stayed running with nobody calling, until the
// sweeper found the lease expired and charged an estimate for a call never made.
//
// Reproduced with a real worker process whose database connections pass through a proxy that
// loses one of them (tests/support/cut-proxy.ts): the claim's, while a test transaction holds the
// capture's row. The worker must wait for the claim to end before it reads, and run the capture
// it claimed.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { captureStatusCounts, waitForCheckToFinish } from "../support/check-fixtures";
import { startCutProxy, type CutProxy } from "../support/cut-proxy";
import { expectBudgetConsistent, newSpace, repairsIn, startSpaceCheck } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { startWorkers } from "../support/worker-process";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { db } from "@/lib/db/prisma";

let proxy: CutProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const LOCK_WAITERS = `SELECT pid, client_port FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`;

describe("a claim whose connection is lost while it waits for a lock", () => {
  it("is waited for: the worker runs the capture it claimed, once, and pays once", { timeout: 90_000 }, async () => {
    const space = await newSpace({ prompts: 1 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    const captureId = captureIds[0]!;

    const control = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await control.connect();
    const rowLock = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await rowLock.connect();
    try {
      // The capture's row held (as any transition holds it for a moment), before the worker starts.
      await rowLock.query("BEGIN");
      await rowLock.query("SELECT id FROM captures WHERE id = $1 FOR UPDATE", [captureId]);
      proxy = await startCutProxy(process.env.DATABASE_URL!);
      const [worker] = await startWorkers(["w1"], { DATABASE_URL: proxy.url, BEACON_WORKER_CONCURRENCY: 1, BEACON_WORKER_LEASE_SECONDS: 5 });
      const details = () => worker!.output();

      const claim = await waitFor(
        async () => {
          const { rows } = await control.query<{ pid: number; client_port: number }>(`${LOCK_WAITERS} AND query ILIKE '%beacon_claim%'`);
          return rows[0];
        },
        { what: "w1's claim waiting for the capture's row", timeoutMs: 30_000, intervalMs: 10, details },
      );
      expect(proxy.cutClientSide(claim.client_port), "the claim's connection found in the proxy").toBe(true);

      // The worker has learnt its statement failed and asked whether it committed: either it
      // waits for the capture's row behind the claim, or (without that wait) it read "no" and
      // the task failed.
      await waitFor(
        async () => {
          if (/Failed task/.test(worker!.output())) return true;
          const { rows } = await control.query(LOCK_WAITERS);
          return rows.length >= 2;
        },
        { what: "w1 to ask whether its claim committed", timeoutMs: 30_000, intervalMs: 10, details },
      );
      // The claim, still waiting on the server, goes on and commits.
      await rowLock.query("ROLLBACK");

      const done = await waitForCheckToFinish(checkId, 60_000, details);
      expect(done.status, JSON.stringify(await captureStatusCounts(checkId))).toBe("completed");
      const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { attempts: { orderBy: { number: "asc" } } } });
      expect(capture.status).toBe("succeeded");
      // The claim's attempt is the one that called and succeeded: no attempt swept as lost and charged an estimate.
      expect(capture.attempts.map((a) => a.outcome), details()).toEqual(["succeeded"]);
      expect(worker!.output()).not.toMatch(/given up/);
      expect(worker!.running, details()).toBe(true);
      await expectBudgetConsistent(space.workspaceId);
      expect(await runRepairPass()).toEqual({});
      expect(await repairsIn(space.workspaceId)).toEqual([]);
    } finally {
      await rowLock.end().catch(() => {});
      await control.end().catch(() => {});
    }
  });
});
