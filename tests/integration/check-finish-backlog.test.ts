// A check's finish must not read other checks' backlogs (issue 20). finishCheckIfDone asks, after
// each transition that ends a capture, whether any capture of the check is left unfinished. Asked
// as an anti-join of the check with the unfinished captures, the planner could hash every
// unfinished capture of the database (through the (status, connectionId) index) when its
// statistics, taken while little was waiting, said there were few: another check's backlog of
// thousands then made every finish probe of every small check read them all.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { checkDoneProbe } from "@/lib/lifecycle/transition";
import { db } from "@/lib/db/prisma";

const HISTORY = 20_000;
const BACKLOG = 20_000;
let space: Space;
let backlogCheckId: string;

/** `n` copies (samples after `firstSample`) of the capture with this status and answer text, on the same check (metric triggers off). */
async function copies(captureId: string, n: number, status: string, text: string, firstSample: number) {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
    await tx.$executeRaw`
      INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status,
        "attemptCount", "maxAttempts", model, "searchMode", "answerText", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), c."workspaceId", c."checkId", c."brandId", c."promptId", c."providerConfigId", c."connectionId", c.sample + ${firstSample}::int + g,
        ${status}::"CaptureStatus", 0, c."maxAttempts", c.model, c."searchMode", ${text}, now(), now()
      FROM captures c CROSS JOIN generate_series(1, ${n}) g WHERE c.id = ${captureId}::uuid`;
  });
}

beforeAll(async () => {
  space = await newSpace({ prompts: 3 });
  const backlog = await startSpaceCheck(space, { prompts: 1 });
  backlogCheckId = backlog.checkId;
  // Statistics taken while almost nothing waited (a long finished history), then a large backlog
  // queued on another check before the next analyze: what a busy instance sees between analyzes.
  await copies(backlog.captureIds[0]!, HISTORY, "cancelled", "History", 0);
  await db().$executeRaw`ANALYZE captures`;
  await copies(backlog.captureIds[0]!, BACKLOG, "queued", "Backlog", HISTORY);
}, 120_000);

afterAll(async () => {
  await db().$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
    await tx.$executeRaw`DELETE FROM captures WHERE "checkId" = ${backlogCheckId}::uuid AND "answerText" IN ('History', 'Backlog')`;
  });
});

type PlanNode = { "Relation Name"?: string; "Index Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** The captures rows the plan read (returned or filtered out), with the indexes it used on captures. */
function capturesRead(node: PlanNode): { rows: number; indexes: string[] } {
  const own = node["Relation Name"] === "captures" ? { rows: (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"], indexes: node["Index Name"] ? [node["Index Name"]] : [] } : { rows: 0, indexes: [] };
  return (node.Plans ?? []).map(capturesRead).reduce((a, b) => ({ rows: a.rows + b.rows, indexes: [...a.indexes, ...b.indexes] }), own);
}

describe("finishing a check while another check has a large backlog", () => {
  it("finishes it, and asks only about its own captures", async () => {
    const workerId = await liveWorker();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    for (const id of captureIds) expect(await succeed(id, await claimed(id, workerId))).toEqual({ kind: "written", status: "succeeded" });
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("completed");

    // Its finish cleared again, so that the probe asks about its captures as it did before the last end.
    await db().check.update({ where: { id: checkId }, data: { finishedAt: null } });
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const probe = checkDoneProbe(checkId);
      const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${probe.text}`, probe.values);
      const read = capturesRead(rows[0]!["QUERY PLAN"][0]!.Plan);
      expect(read.rows, `captures read by the probe, through ${read.indexes.join(", ")}`).toBeLessThanOrEqual(captureIds.length);
      expect(read.indexes).not.toContain("captures_status_connectionId_idx");
    } finally {
      await client.end();
    }
  });
});
