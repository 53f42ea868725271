// Interactive transactions under load (lib/db/transaction.ts): a transaction that waits longer
// than Prisma's 5 s default (a loaded machine, a lock held by someone else) still commits, and one
// that PostgreSQL ends to resolve a conflict, or that outlived its time limit, runs again as a whole.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { join, membershipOf, ok, signUp, type Person } from "../support/workspace-fixtures";
import { waitFor } from "../support/wait-for";
import { changeMemberRoleAction } from "@/lib/actions/members";
import { reloadEnv } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";

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

/**
 * The start of the oldest transaction that waits for a lock, once there is one (the server's
 * clock, as text: a Date would lose its microseconds).
 */
async function firstLockWaiter(): Promise<string> {
  return waitFor(
    async () => {
      const { rows } = await probe.query<{ started: string | null }>(
        `SELECT min(xact_start)::text AS started FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
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
async function heldBehindMembershipsLock<T>(action: () => Promise<T>, released: (firstWaiterStarted: string) => Promise<boolean>): Promise<T> {
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
async function serverClockPast(since: string, seconds: number): Promise<boolean> {
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

  it("a transaction that outlived its configured timeout runs again as a whole, and the retry commits", async () => {
    const member = await join(owner, "member", "Timed Tim");
    const membership = await membershipOf(member.userId, owner.workspaceId);
    const configured = process.env.BEACON_DB_TRANSACTION_TIMEOUT_MS;
    process.env.BEACON_DB_TRANSACTION_TIMEOUT_MS = "1000";
    reloadEnv();
    try {
      // Prisma's timeout does not cancel a statement that waits: the first run goes on waiting
      // for the lock, and fails at its next statement once the lock is released after its 1 s.
      const result = await heldBehindMembershipsLock(
        () => owner.browser.run(() => changeMemberRoleAction({ membershipId: membership.id, role: "viewer" })),
        (started) => serverClockPast(started, 2),
      );
      ok(result);
    } finally {
      if (configured === undefined) delete process.env.BEACON_DB_TRANSACTION_TIMEOUT_MS;
      else process.env.BEACON_DB_TRANSACTION_TIMEOUT_MS = configured;
      reloadEnv();
    }
    expect((await membershipOf(member.userId, owner.workspaceId)).role).toBe("viewer");
  });
});

describe("conflicts PostgreSQL resolves by ending a transaction", () => {
  // A trigger fails an update that sets fail_with with that SQLSTATE, the way PostgreSQL ends a
  // deadlock's victim, refuses a serializable transaction or gives up a lock wait.
  beforeAll(async () => {
    await db().$executeRawUnsafe(`CREATE TABLE test_counters (id text PRIMARY KEY, n int NOT NULL DEFAULT 0, fail_with text)`);
    await db().$executeRawUnsafe(`
      CREATE FUNCTION test_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.fail_with IS NOT NULL THEN RAISE EXCEPTION 'injected %', NEW.fail_with USING ERRCODE = NEW.fail_with; END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_fail_once BEFORE UPDATE ON test_counters FOR EACH ROW EXECUTE FUNCTION test_fail_once()`);
  });

  for (const [sqlstate, what] of [
    ["40P01", "a deadlock's victim"],
    ["40001", "a serialization failure"],
    ["55P03", "a lock that could not be taken in time"],
  ] as const) {
    it(`runs ${what} (${sqlstate}) again as a whole, and commits it once`, async () => {
      const id = `c${sqlstate}`;
      await db().$executeRawUnsafe(`INSERT INTO test_counters (id) VALUES ('${id}')`);
      let runs = 0;
      await transaction(async (tx) => {
        runs++;
        // The first run fails at its second statement; the second run finds nothing to fail on.
        await tx.$executeRawUnsafe(`UPDATE test_counters SET n = n + 1, fail_with = NULL WHERE id = '${id}'`);
        if (runs === 1) await tx.$executeRawUnsafe(`UPDATE test_counters SET fail_with = '${sqlstate}' WHERE id = '${id}'`);
      });
      // The first run's increment was rolled back with it: counted once.
      const [row] = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT n FROM test_counters WHERE id = '${id}'`);
      expect({ runs, n: row!.n }).toEqual({ runs: 2, n: 1 });
    });
  }

  it("a model statement's write conflict (P2034) is run again too", async () => {
    const member = await join(owner, "member", "Conflicted Cleo");
    const membership = await membershipOf(member.userId, owner.workspaceId);
    // A membership update that fails once with 40001 through Prisma's model API (not raw SQL).
    await db().$executeRawUnsafe(`CREATE SEQUENCE test_membership_failures`);
    await db().$executeRawUnsafe(`
      CREATE FUNCTION test_membership_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('test_membership_failures') = 1 THEN RAISE EXCEPTION 'injected' USING ERRCODE = '40001'; END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_membership_fail_once BEFORE UPDATE ON memberships FOR EACH ROW EXECUTE FUNCTION test_membership_fail_once()`);
    try {
      let runs = 0;
      await transaction(async (tx) => {
        runs++;
        await tx.membership.update({ where: { id: membership.id }, data: { role: "admin" } });
      });
      expect(runs).toBe(2);
      expect((await membershipOf(member.userId, owner.workspaceId)).role).toBe("admin");
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_membership_fail_once ON memberships`);
    }
  });

  it("an error that is not a conflict is not run again", async () => {
    let runs = 0;
    await expect(
      transaction(async (tx) => {
        runs++;
        await tx.$executeRawUnsafe(`INSERT INTO test_counters (id) VALUES ('dup'), ('dup')`);
      }),
    ).rejects.toMatchObject({ code: "P2010" });
    expect(runs).toBe(1);
  });
});
