// A check's creation crossing the settings it is made from: what it read to check and estimate
// its captures (its providers' connection, model and search mode) is what its captures run with,
// whatever an edit sent at the same moment does. The creation is held at check:create-after-read
// (everything read, nothing written) while the other side acts.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { acrossMigration } from "../support/partial-migrations";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { captureEstimate, createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { db } from "@/lib/db/prisma";
import { updateProviderConfig } from "@/lib/workspaces/provider-configs";

describe("a provider edited while a check of it is being created", () => {
  it("waits for the check: its captures run on the model and search mode the check read, checked and held money for", async () => {
    const space = await newSpace({ prompts: 1 });
    const providerId = space.providers.ChatGPT!;
    const before = await db().providerConfig.findUniqueOrThrow({ where: { id: providerId }, include: { connection: true } });
    // The space's own connection, offering a second model to switch to.
    const otherModel = `${before.model}-other`;
    await db().providerConnection.update({ where: { id: before.connectionId }, data: { models: [...before.connection.models, otherModel] } });
    const gate = gateAt("check:create-after-read");
    const starting = startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    await gate.reached;
    const editing = updateProviderConfig(space.workspaceId, providerId, {
      name: before.name,
      connectionId: before.connectionId,
      model: otherModel,
      searchMode: before.searchMode === "off" ? "on" : "off",
      enabled: true,
    });
    await Promise.race([editing, waitForLockWaiter(1)]); // the edit waits for the check, or (unguarded) commits now
    gate.open();
    const [{ captureIds }] = await Promise.all([starting, editing]);

    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0]! }, include: { promptVersion: true, connection: true } });
    expect({ model: capture.model, searchMode: capture.searchMode }).toEqual({ model: before.model, searchMode: before.searchMode });
    expect(capture.reservedMicros, "held for what it runs").toBe(BigInt(captureEstimate(capture.promptVersion.text, { ...capture.connection, searchMode: capture.searchMode })));
    // The edit landed after, for the next check.
    expect(await db().providerConfig.findUniqueOrThrow({ where: { id: providerId } })).toMatchObject({ model: otherModel });
  });
});

describe("a question sent as text (REST API) matching a prompt that is reworded at that moment", () => {
  it("asks the text that was sent: the match is held, and a prompt reworded away no longer matches", async () => {
    const space = await newSpace({ prompts: 1 });
    const promptId = space.promptIds[0]!;
    const asked = (await db().prompt.findUniqueOrThrow({ where: { id: promptId } })).text;
    // The worst moment: an edit of the matching prompt holds its row while the check looks for it, and commits after.
    const editor = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await editor.connect();
    try {
      await editor.query("BEGIN");
      await editor.query("SELECT id FROM prompts WHERE id = $1 FOR UPDATE", [promptId]);
      const body = { prompts: { mode: "api" as const, promptIds: [], texts: [asked] }, providers: { names: ["ChatGPT"] }, samples: 1 };
      const starting = createCheck({ workspaceId: space.workspaceId, idempotencyKey: randomUUID(), requestHash: hashRequest(body), startedById: space.owner.userId, ...body });
      await waitForLockWaiter(1);
      await editor.query(`UPDATE prompts SET text = 'Which help desk is best for a hospital?', "updatedAt" = now() WHERE id = $1`, [promptId]);
      await editor.query("COMMIT");
      const { checkId } = await starting;

      const captures = await db().capture.findMany({ where: { checkId }, include: { promptVersion: true } });
      expect(captures.map((c) => c.promptVersion.text)).toEqual([asked]);
      expect(captures[0]!.promptId, "a new prompt with the text sent").not.toBe(promptId);
    } finally {
      await editor.end();
    }
  });
});

describe("two checks sent at once with the same new question as text (REST API)", () => {
  it("make one prompt: the second waits for the first's and then asks it", async () => {
    const space = await newSpace({ prompts: 1 });
    const text = `Which CRM would a ${randomUUID().slice(0, 8)} team pick?`;
    const start = () => {
      const body = { prompts: { mode: "api" as const, promptIds: [], texts: [text] }, providers: { names: ["ChatGPT"] }, samples: 1 };
      return createCheck({ workspaceId: space.workspaceId, idempotencyKey: randomUUID(), requestHash: hashRequest(body), startedById: space.owner.userId, ...body });
    };
    // The worst moment: the first check has made its prompt and not committed.
    const gate = gateAt("check:create-before-commit");
    const first = start();
    await gate.reached;
    const second = start();
    await Promise.race([second, waitForLockWaiter(1)]); // the second waits for the first's prompt, or (unguarded) makes its own
    gate.open();
    const checks = await Promise.all([first, second]);

    const live = await db().prompt.findMany({ where: { workspaceId: space.workspaceId, text, deletedAt: null } });
    expect(live).toHaveLength(1);
    const asked = await db().capture.findMany({ where: { checkId: { in: checks.map((c) => c.checkId) } }, select: { promptId: true } });
    expect(asked.map((c) => c.promptId)).toEqual([live[0]!.id, live[0]!.id]);
  });
});

describe("the prompts_one_live_per_text migration", () => {
  it("keeps the oldest of live prompts sharing a text (ignoring case) and archives the others; archived ones stay", async () => {
    await acrossMigration(
      "20261216120000_prompts_one_live_per_text",
      async (sql) => {
        const { rows } = await sql(`INSERT INTO workspaces (slug, name, "updatedAt") VALUES ('dupes', 'Dupes', now()) RETURNING id`);
        const workspaceId = (rows[0] as { id: string }).id;
        const add = async (text: string, minutesAgo: number, deleted = false) =>
          ((await sql(`INSERT INTO prompts ("workspaceId", text, "createdAt", "updatedAt", "deletedAt") VALUES ($1, $2, now() - make_interval(mins => $3), now(), $4) RETURNING id`, [workspaceId, text, minutesAgo, deleted ? new Date() : null])).rows[0] as { id: string }).id;
        return { oldest: await add("Best CRM?", 30), younger: await add("best crm?", 20), archived: await add("BEST CRM?", 40, true), other: await add("Cheapest CRM?", 10) };
      },
      async (sql, ids) => {
        const { rows } = await sql(`SELECT id, "deletedAt" IS NULL AS live FROM prompts WHERE id = ANY($1::uuid[])`, [Object.values(ids)]);
        const live = Object.fromEntries((rows as { id: string; live: boolean }[]).map((r) => [r.id, r.live]));
        expect(live).toEqual({ [ids.oldest]: true, [ids.younger]: false, [ids.archived]: false, [ids.other]: true });
      },
    );
  });
});
