// A check created with ad-hoc prompt texts (REST API `prompts: [{ "text": ... }]`) in a workspace
// with 30,000 prompts: a text a live prompt already has, whatever its case, reuses that prompt;
// the others become prompts, once each; archived prompts are not reused. The lookup is one
// statement over an index: it used to scan the workspace's prompts once per text (1,000 texts
// took 37 s inside the creation transaction). Speed targets live in `npm run bench`; the time
// asserted here only catches a scan coming back.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/api-fixtures";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { findPromptsByText } from "@/lib/prompts/prompts";

const PROMPTS = 30_000;
const existing = (i: number) => `Which CRM suits team number ${i}?`;

let tenant: Tenant;
let providerId: string;

beforeAll(async () => {
  tenant = await createTenant("Lookup");
  providerId = (await db().providerConfig.findFirstOrThrow({ where: { workspaceId: tenant.workspaceId }, orderBy: { name: "asc" } })).id;
  await db().$executeRaw`
    INSERT INTO prompts (id, "workspaceId", text, "createdAt")
    SELECT gen_random_uuid(), ${tenant.workspaceId}::uuid, 'Which CRM suits team number ' || i || '?', now() - make_interval(secs => ${PROMPTS} - i)
    FROM generate_series(1, ${PROMPTS}) AS i`;
  await db().$executeRaw`ANALYZE prompts`;
});

const livePrompts = () => db().prompt.findMany({ where: { workspaceId: tenant.workspaceId, deletedAt: null }, select: { id: true, text: true } });

describe("a check with 1,000 prompt texts against 30,000 prompts", () => {
  // A generous timeout: a slow createCheck should fail on its time below, not time out.
  it("reuses the live prompts with those texts, whatever their case, and creates each other text once", { timeout: 180_000 }, async () => {
    // 500 texts the workspace has (every 60th prompt, every other one shouted), 10 of them archived.
    const asked = Array.from({ length: 500 }, (_, k) => existing(60 * (k + 1)));
    const spelled = asked.map((t, k) => (k % 2 ? t.toUpperCase() : t));
    await db().prompt.updateMany({ where: { workspaceId: tenant.workspaceId, text: { in: asked.slice(0, 10) } }, data: { deletedAt: new Date() } });
    const archived = spelled.slice(0, 10); // become new prompts, spelled as asked
    // 500 new texts, the last one a repeat of the first in another case.
    const fresh = Array.from({ length: 499 }, (_, k) => `A brand new question ${k + 1}?`);
    const texts = [...spelled, ...fresh, fresh[0]!.toUpperCase()];
    expect(texts).toHaveLength(1000);

    const before = new Map((await livePrompts()).map((p) => [p.text, p.id]));
    const body = { prompts: { mode: "api" as const, promptIds: [], texts }, providers: { ids: [providerId] }, samples: 1 };
    const started = performance.now();
    const { checkId } = await createCheck({ workspaceId: tenant.workspaceId, idempotencyKey: `lookup-${randomUUID()}`, requestHash: hashRequest(body), ...body });
    const seconds = (performance.now() - started) / 1000;

    const after = new Map((await livePrompts()).map((p) => [p.text, p.id]));
    const created = [...after.keys()].filter((text) => !before.has(text));
    expect(created.sort()).toEqual([...archived, ...fresh].sort()); // the first spelling asked
    const captured = (await db().capture.findMany({ where: { checkId }, select: { promptId: true } })).map((c) => c.promptId);
    const expected = [...asked.slice(10).map((t) => before.get(t)!), ...archived.map((t) => after.get(t)!), ...fresh.map((t) => after.get(t)!)];
    expect(captured.sort()).toEqual(expected.sort());
    expect(seconds, "createCheck with 1,000 texts").toBeLessThan(10);
  });

  it("looks the texts up through prompts_live_text_idx, not by scanning the workspace's prompts", async () => {
    const texts = Array.from({ length: 1000 }, (_, k) => existing(k + 1));
    // findPromptsByText's own statement, explained by the database instead of run.
    let statement: Prisma.Sql | undefined;
    const explaining = { $queryRaw: (strings: TemplateStringsArray, ...values: unknown[]) => ((statement = Prisma.sql(strings, ...values)), Promise.resolve([])) };
    await findPromptsByText(explaining as unknown as Parameters<typeof findPromptsByText>[0], tenant.workspaceId, texts);
    const plan = await db().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${statement!.text}`, ...statement!.values);
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("prompts_live_text_idx");
    expect((await findPromptsByText(db(), tenant.workspaceId, texts)).every((match) => match.id !== null)).toBe(true);
  });
});
