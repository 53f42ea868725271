// A connection's concurrency slots (connection_slots): taken by a claim with FOR UPDATE SKIP
// LOCKED, given back by a trigger when the capture leaves running, and handed on to the capture
// that waits for one. Each race is played with one side held at its worst moment.
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { acrossMigration } from "../support/partial-migrations";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { captureRow, claim, claimed, jobOf, liveWorker, newSpace, repairsIn, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { db } from "@/lib/db/prisma";

let space: Space;
let workerId: string;

/** The slot rows of the space's ChatGPT connection that a claim may take (below its cap). */
async function slots() {
  const connectionId = space.connections.ChatGPT!;
  const { maxConcurrency } = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
  const rows = await db().connectionSlot.findMany({ where: { connectionId }, orderBy: { slot: "asc" } });
  return rows.filter((r) => r.slot < maxConcurrency);
}

const databaseNow = async () => (await db().$queryRaw<{ now: Date }[]>`SELECT now() AT TIME ZONE 'UTC' AS now`)[0]!.now;

/** A ChatGPT check of `count` captures on a connection capped at `cap`. */
async function checkAtCap(cap: number, count: number) {
  await db().providerConnection.update({ where: { id: space.connections.ChatGPT! }, data: { maxConcurrency: cap } });
  return (await startSpaceCheck(space, { prompts: count })).captureIds;
}

beforeEach(async () => {
  space = await newSpace({ prompts: 4 });
  workerId = await liveWorker();
});

describe("connection slots", () => {
  it("exist up to the cap, follow a raised cap, and are held exactly while their captures run", async () => {
    const [a, b] = await checkAtCap(2, 2);
    expect(await slots()).toHaveLength(2);
    const run = await claimed(a!, workerId);
    expect((await slots()).map((s) => s.captureId)).toEqual([a, null]);
    await succeed(a!, run);
    expect((await slots()).every((s) => s.captureId === null)).toBe(true);

    await db().providerConnection.update({ where: { id: space.connections.ChatGPT! }, data: { maxConcurrency: 5 } });
    expect(await slots()).toHaveLength(5);
    await claimed(b!, workerId);
    expect((await slots()).filter((s) => s.captureId === b)).toHaveLength(1);
  });

  it("a lowered cap holds while calls above it drain: a slot freed below it is not room", async () => {
    const [a, b, c, d] = await checkAtCap(3, 4);
    const runs = [await claimed(a!, workerId), await claimed(b!, workerId), await claimed(c!, workerId)];
    // The operator lowers the cap to 1 while three calls run (slots 0-2).
    await db().providerConnection.update({ where: { id: space.connections.ChatGPT! }, data: { maxConcurrency: 1 } });
    await succeed(a!, runs[0]!);
    // Slot 0 is free and below the cap, but two calls still run: the connection is full.
    expect((await claim(d!, workerId)).result.kind).toBe("busy");
    expect(await db().connectionSlot.count({ where: { connectionId: space.connections.ChatGPT!, captureId: { not: null } } })).toBe(2);
    await succeed(b!, runs[1]!);
    expect((await claim(d!, workerId)).result.kind, "one call still runs on a cap of 1").toBe("busy");
    await succeed(c!, runs[2]!);
    expect((await claim(d!, workerId)).result.kind).toBe("claimed");
  });

  it("during a drain, of two claims for the one call the lowered cap has room for, one has it", async () => {
    const space5 = (space = await newSpace({ prompts: 5 }));
    const [a, b, c, d, e] = await checkAtCap(3, 5);
    const runs = [await claimed(a!, workerId), await claimed(b!, workerId), await claimed(c!, workerId)];
    await db().providerConnection.update({ where: { id: space5.connections.ChatGPT! }, data: { maxConcurrency: 2 } });
    // Slots 0 and 1 freed below the cap of 2, slot 2 above it still held: room for exactly one more call.
    await succeed(a!, runs[0]!);
    await succeed(b!, runs[1]!);
    const held = gateAt("claim:before-commit", (context) => context.captureId === d);
    const first = claim(d!, workerId);
    await held.reached;
    // The second claim must wait for the first's count (or, unguarded, takes the other free slot).
    const second = claim(e!, workerId);
    await Promise.race([second, waitForLockWaiter()]);
    held.open();
    const kinds = [(await first).result.kind, (await second).result.kind].sort();
    expect(kinds).toEqual(["busy", "claimed"]);
    expect(await db().connectionSlot.count({ where: { connectionId: space5.connections.ChatGPT!, captureId: { not: null } } })).toBe(2);
  });

  it("let one of two claims for the last slot have it; the other waits for a slot", async () => {
    const [a, b] = await checkAtCap(1, 2);
    const held = gateAt("claim:before-commit", (c) => c.captureId === a);
    const first = claim(a!, workerId);
    await held.reached;
    // A's claim holds the only slot, uncommitted: B skips it, finds none, and records that it
    // waits, without waiting for A.
    const second = await claim(b!, workerId);
    held.open();
    expect((await first).result.kind).toBe("claimed");
    expect(second.result.kind).toBe("busy");
    const waiting = await captureRow(b!);
    expect(waiting).toMatchObject({ status: "postponed", waitingFor: "slot", attemptCount: 0 });
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan((await databaseNow()).getTime());
    expect((await jobOf(b!))!.run_at.getTime(), "its job waits for the fallback").toBeGreaterThan(Date.now() - 5_000);
  });

  it("hand a freed slot on: the longest waiting capture's job is due at once", async () => {
    const [a, b] = await checkAtCap(1, 2);
    const run = await claimed(a!, workerId);
    expect((await claim(b!, workerId)).result.kind).toBe("busy");
    const before = await jobOf(b!);
    await succeed(a!, run);
    const woken = await captureRow(b!);
    const now = await databaseNow();
    expect(woken.status).toBe("postponed");
    expect(woken.nextAttemptAt!.getTime(), "its wait is over").toBeLessThanOrEqual(now.getTime());
    const job = await jobOf(b!);
    expect(job!.revision, "its job was made due again").toBeGreaterThan(before!.revision);
    expect(job!.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect((await claim(b!, workerId)).result.kind).toBe("claimed");
  });

  it("nudge idle workers when a full connection frees a slot that no waiting capture took, and only then", async () => {
    // graphile-worker's own channel: idle workers skip a full connection's jobs and look again
    // when told. What a transition sent arrives before a marker sent after it committed.
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(n.payload ?? ""));
    await listener.query(`LISTEN "jobs:insert"`);
    const heardUntilMarker = async () => {
      const marker = `marker ${heard.length}-${Date.now()}`;
      await db().$executeRaw`SELECT pg_notify('jobs:insert', ${marker})`;
      await waitFor(() => heard.includes(marker), { what: "the marker notification", timeoutMs: 10_000, intervalMs: 10 });
      return heard.splice(0).filter((payload) => payload !== marker);
    };
    try {
      const [a, b, c] = await checkAtCap(2, 3);
      const runA = await claimed(a!, workerId);
      await heardUntilMarker();
      // Not full (one of two slots taken): nobody is nudged.
      await succeed(a!, runA);
      expect(await heardUntilMarker(), "a connection that was not full").toEqual([]);
      // Full, nobody waiting: the freed slot is announced.
      const runB = await claimed(b!, workerId);
      const runC = await claimed(c!, workerId);
      await heardUntilMarker();
      await succeed(b!, runB);
      expect((await heardUntilMarker()).map((payload) => JSON.parse(payload))).toEqual([{ count: 1 }]);
      await succeed(c!, runC);
    } finally {
      await listener.end();
    }
  });

  it("a claim that finds every slot taken while a release is uncommitted waits for it and takes the slot", async () => {
    const [a, b] = await checkAtCap(1, 2);
    const run = await claimed(a!, workerId);
    const releasing = gateAt("succeed:before-commit", (c) => c.captureId === a);
    const done = succeed(a!, run);
    await releasing.reached;
    // The slot row is locked by A's result (given back, not committed): B's claim sees no free
    // slot, and waits for the releases in flight before it decides.
    const second = claim(b!, workerId);
    await waitForLockWaiter();
    releasing.open();
    await done;
    expect((await second).result.kind).toBe("claimed");
    expect((await captureRow(b!)).status).toBe("running");
  });

  it("a release while a claim is deciding to wait wakes that claim's capture once it is recorded", async () => {
    // Two checks, so that nothing but the slot handshake orders the two transactions.
    const [a] = await checkAtCap(1, 1);
    const [b] = (await startSpaceCheck(space, { prompts: 1 })).captureIds;
    const run = await claimed(a!, workerId);
    const deciding = gateAt("claim:no-slot-before-commit", (c) => c.captureId === b);
    const second = claim(b!, workerId);
    await deciding.reached;
    // A's result gives the slot back now; it must not miss B, which is not committed yet.
    const done = succeed(a!, run);
    await waitForLockWaiter();
    deciding.open();
    expect((await second).result.kind).toBe("busy");
    await done;
    const woken = await captureRow(b!);
    expect(woken).toMatchObject({ status: "postponed", waitingFor: "slot" });
    expect(woken.nextAttemptAt!.getTime(), "woken by the release").toBeLessThanOrEqual((await databaseNow()).getTime());
  });

  it("give another workspace waiting for the connection its share before a workspace takes more", async () => {
    const other = await newSpace({ prompts: 1 });
    const connectionId = space.connections.ChatGPT!;
    await db().connectionGrant.create({ data: { connectionId, workspaceId: other.workspaceId } });
    await db().providerConfig.update({ where: { id: other.providers.ChatGPT! }, data: { connectionId } });
    const [a1, a2] = await checkAtCap(2, 2);
    const [b1] = (await startSpaceCheck(other, { prompts: 1 })).captureIds;
    const run = await claimed(a1!, workerId);
    expect((await claim(a2!, workerId)).result.kind, "A holds its share (1 of 2) while B waits").toBe("busy");
    expect((await captureRow(a2!)).waitingFor).toBe("slot");
    await claimed(b1!, workerId);
    await succeed(a1!, run);
    expect((await captureRow(a2!)).nextAttemptAt!.getTime(), "A's slot goes to A's waiting capture").toBeLessThanOrEqual((await databaseNow()).getTime());
    expect((await claim(a2!, workerId)).result.kind).toBe("claimed");
  });

  it("a slot held for a capture that is not running is given back by the repair pass", async () => {
    const [a, b] = await checkAtCap(1, 2);
    await db().connectionSlot.update({ where: { connectionId_slot: { connectionId: space.connections.ChatGPT!, slot: 0 } }, data: { captureId: a, workspaceId: space.workspaceId } });
    expect((await claim(b!, workerId)).result.kind).toBe("busy");
    expect(await runRepairPass()).toMatchObject({ slot_of_capture_not_running: 1 });
    expect(await repairsIn(space.workspaceId)).toContain("slot_of_capture_not_running");
    expect((await captureRow(b!)).nextAttemptAt!.getTime(), "and the waiting capture is woken").toBeLessThanOrEqual((await databaseNow()).getTime());
    expect((await claim(b!, workerId)).result.kind).toBe("claimed");
  });
});

describe("the connection_slots migration", () => {
  it("gives each connection its slots and the running captures theirs", async () => {
    await acrossMigration(
      "20261130150000_connection_slots",
      async (sql) => {
        const { rows: [connection] } = await sql(`SELECT id FROM provider_connections ORDER BY name LIMIT 1`);
        await sql(`UPDATE provider_connections SET "maxConcurrency" = 3 WHERE id = $1`, [connection.id]);
        await sql(`INSERT INTO users (id, name, email) VALUES ('u', 'U', 'u@example.com')`);
        const { rows: [ws] } = await sql(`INSERT INTO workspaces (slug, name) VALUES ('w', 'W') RETURNING id`);
        const { rows: [brand] } = await sql(`INSERT INTO brands ("workspaceId", name) VALUES ($1, 'B') RETURNING id`, [ws.id]);
        const { rows: [prompt] } = await sql(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which CRM?') RETURNING id`, [ws.id]);
        const { rows: [provider] } = await sql(`INSERT INTO provider_configs ("workspaceId", name, "connectionId", model) VALUES ($1, 'P', $2, 'm') RETURNING id`, [ws.id, connection.id]);
        const { rows: [check] } = await sql(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`, [ws.id, brand.id]);
        const ids: string[] = [];
        for (const [sample, status] of [[1, "running"], [2, "queued"]] as const) {
          const { rows } = await sql(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "startedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::"CaptureStatus", 3, 'm', 'auto', now(), now()) RETURNING id`,
            [ws.id, check.id, brand.id, prompt.id, provider.id, connection.id, sample, status],
          );
          ids.push(rows[0].id);
        }
        return { connectionId: connection.id as string, running: ids[0]! };
      },
      async (sql, { connectionId, running }) => {
        const { rows } = await sql(`SELECT slot, "captureId" FROM connection_slots WHERE "connectionId" = $1 ORDER BY slot`, [connectionId]);
        expect(rows).toEqual([
          { slot: 0, captureId: running },
          { slot: 1, captureId: null },
          { slot: 2, captureId: null },
        ]);
        const { rows: counts } = await sql(
          `SELECT count(*)::int AS n FROM provider_connections pc WHERE (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = pc.id) < pc."maxConcurrency"`,
        );
        expect(counts[0].n, "every connection has its slots").toBe(0);
      },
    );
  });
});
