// Interactive transactions under load (lib/db/transaction.ts): a transaction that waits longer
// than Prisma's 5 s default (a loaded machine, a lock held by someone else) still commits, and one
// that PostgreSQL ends to resolve a conflict, or that outlived its time limit, runs again as a whole.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { join, membershipOf, ok, signUp, type Person } from "../support/workspace-fixtures";
import { waitFor } from "../support/wait-for";
import { changeMemberRoleAction } from "@/lib/actions/members";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// `gate` holds locks in a transaction; `probe` watches pg_stat_activity (which a transaction reads
// as one snapshot: inside the gate's it would never change).
let gate: pg.Client;
let probe: pg.Client;
let owner: Person;

beforeAll(async () => {
  gate = new pg.Client({ connectionString: process.env.DATABASE_URL });
  probe = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await Promise.all([gate.connect(), probe.connect()]);
  owner = await signUp({ name: "Tess Transactions" });
});

afterAll(async () => {
  await Promise.all([gate.end(), probe.end()]);
});

/** The start of the oldest transaction that waits for a lock, once there is one (the server's clock). */
async function firstLockWaiter(): Promise<Date> {
  return waitFor(
    async () => {
      const { rows } = await probe.query<{ started: Date | null }>(
        `SELECT min(xact_start) AS started FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows[0]!.started;
    },
    { what: "a transaction waiting for the memberships lock", timeoutMs: 30_000, intervalMs: 20 },
  );
}

/**
 * Runs `action` while `gate` holds memberships locked, until `released` (given the start of the
 * first transaction that waited for the lock) says the lock may go.
 */
async function heldBehindMembershipsLock<T>(action: () => Promise<T>, released: (firstWaiterStarted: Date) => Promise<boolean>): Promise<T> {
  await gate.query("BEGIN");
  await gate.query("LOCK TABLE memberships IN EXCLUSIVE MODE");
  try {
    const running = action();
    const started = await firstLockWaiter();
    await waitFor(() => released(started), { what: "the moment to release the memberships lock", timeoutMs: 30_000, intervalMs: 50 });
    await gate.query("COMMIT");
    return await running;
  } finally {
    await gate.query("ROLLBACK").catch(() => {});
  }
}

/** The server's clock has passed `seconds` after `since`. */
async function serverClockPast(since: Date, seconds: number): Promise<boolean> {
  const { rows } = await probe.query<{ past: boolean }>(`SELECT clock_timestamp() > $1::timestamptz + make_interval(secs => $2) AS past`, [since, seconds]);
  return rows[0]!.past;
}

describe("interactive transactions", () => {
  it("a role change that waits behind a lock for longer than Prisma's 5 s default still succeeds", async () => {
    const member = await join(owner, "member", "Slow Sam");
    const membership = await membershipOf(member.userId, owner.workspaceId);
    const result = await heldBehindMembershipsLock(() => owner.browser.run(() => changeMemberRoleAction({ membershipId: membership.id, role: "admin" })), (started) => serverClockPast(started, 6));
    ok(result);
    expect((await membershipOf(member.userId, owner.workspaceId)).role).toBe("admin");
  });
});
