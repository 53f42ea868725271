// A claim's cost must not grow with the connection's history (issue 20, the write path at 1M
// captures: claims took 2.4 s p95 where they took 60 ms at 20k). beacon_take_slot asks whether
// another workspace has captures due on the connection; PL/pgSQL's cached generic plan for it,
// not knowing which statuses are asked for, expected tens of thousands of matches and read the
// whole captures table (a seq scan that finds none) on every claim after a session's fifth.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSpace, startSpaceCheck, type Space } from "../support/lifecycle-fixtures";
import { TRANSITIONS } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";

const HISTORY = 20_000;
let space: Space;
let captureId: string;
let connectionId: string;

beforeAll(async () => {
  space = await newSpace({ prompts: 1 });
  connectionId = space.connections.ChatGPT!;
  const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
  captureId = captureIds[0]!;
  // The connection's history: succeeded copies of the waiting capture, metric triggers off.
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
    await tx.$executeRaw`
      INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status,
        "attemptCount", "maxAttempts", model, "searchMode", "answerText", "costMicros", "latencyMs", "startedAt", "finishedAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), c."workspaceId", c."checkId", c."brandId", c."promptId", c."providerConfigId", c."connectionId", c.sample + g, 'succeeded',
        1, c."maxAttempts", c.model, c."searchMode", 'History', 1000, 800, now() - make_interval(mins => g), now() - make_interval(mins => g), now() - make_interval(mins => g), now()
      FROM captures c CROSS JOIN generate_series(1, ${HISTORY}) g WHERE c.id = ${captureId}::uuid`;
  });
  await db().$executeRaw`ANALYZE captures`;
}, 60_000);

afterAll(async () => {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
    await tx.$executeRaw`DELETE FROM captures WHERE "connectionId" = ${connectionId}::uuid AND status = 'succeeded' AND "answerText" = 'History'`;
  });
});

describe("a claim on a connection with a long history", () => {
  it("takes a slot without reading the connection's past captures, also once the session's plan is cached", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("BEGIN");
      // Twelve slot takings in one session: PL/pgSQL plans the first five with their values,
      // then may keep a generic plan; each is undone so the next finds the slot free again.
      for (let i = 0; i < 12; i++) {
        await client.query("SAVEPOINT take");
        const { rows } = await client.query<{ slot: string }>(`SELECT beacon_take_slot($1::uuid, $2::uuid, $3::uuid, $4::"CaptureStatus"[]) AS slot`, [
          connectionId,
          captureId,
          space.workspaceId,
          [...TRANSITIONS.claim.from],
        ]);
        expect(rows[0]!.slot).toBe("taken");
        await client.query("ROLLBACK TO SAVEPOINT take");
      }
      // This transaction's own scans of captures (pg_stat_xact_user_tables counts them before the commit).
      const { rows } = await client.query<{ seq: string; tuples: string }>(
        `SELECT seq_scan AS seq, seq_tup_read AS tuples FROM pg_stat_xact_user_tables WHERE relname = 'captures'`,
      );
      expect({ seqScans: Number(rows[0]!.seq), rowsRead: Number(rows[0]!.tuples) }).toEqual({ seqScans: 0, rowsRead: 0 });
    } finally {
      await client.query("ROLLBACK").catch(() => {});
      await client.end();
    }
  });
});
