// 4b. createCheck with 1,000 ad-hoc prompt texts (the REST API's `prompts: [{ "text" }]`) in a
// workspace of 30,000 prompts: half the texts exist (in capitals), half are new. The lookup is
// one statement over prompts_live_text_idx; it used to scan the prompts once per text (37 s for
// this in issue 9). Each timed check is discarded before the next; the prompts go at the end.
import { randomUUID } from "node:crypto";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { db } from "@/lib/db/prisma";
import { discardChecks, type Fixtures } from "../lib/fixtures";
import { summarize, type Summary } from "../lib/stats";

export type PromptLookupResult = { prompts: number; texts: number; runs: number; ms: Summary };

const PROMPTS = 30_000;
const TEXTS = 1_000;
const RUNS = 5;

export async function measurePromptLookup(fx: Fixtures): Promise<PromptLookupResult> {
  const tag = `bench-lookup-${randomUUID().slice(0, 8)}`;
  await db().$executeRaw`
    INSERT INTO prompts (id, "workspaceId", text, tags)
    SELECT gen_random_uuid(), ${fx.workspaceId}::uuid, 'Lookup question ' || i || ': which CRM fits this team?', ARRAY[${tag}]
    FROM generate_series(1, ${PROMPTS}) AS i`;
  await db().$executeRaw`ANALYZE prompts`;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const texts = Array.from({ length: TEXTS }, (_, i) => (i % 2 ? `LOOKUP QUESTION ${i * 29}: WHICH CRM FITS THIS TEAM?` : `New lookup question ${run}-${i}?`));
    const body = { prompts: { mode: "api" as const, promptIds: [], texts }, providers: { ids: fx.providerIds.slice(0, 1) }, samples: 1 };
    const started = performance.now();
    const { checkId } = await createCheck({ workspaceId: fx.workspaceId, idempotencyKey: `bench-${randomUUID()}`, requestHash: hashRequest(body), startedById: fx.ownerId, ...body });
    times.push(performance.now() - started);
    await discardChecks([checkId]);
  }
  await db().prompt.deleteMany({ where: { workspaceId: fx.workspaceId, OR: [{ tags: { has: tag } }, { text: { startsWith: "New lookup question " } }] } });
  return { prompts: PROMPTS, texts: TEXTS, runs: RUNS, ms: summarize(times) };
}
