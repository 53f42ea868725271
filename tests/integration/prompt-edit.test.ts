// Editing a prompt while its captures are queued, running or retried. A capture asks the question
// its check was created with: the provider gets that text (and its country, city and language)
// on every attempt, and the money held and charged for the call is computed from it. The
// prompts page edits a prompt's text in place (a typo fixed keeps its history), which used to
// reach captures already created: a queued capture asked the new question, a retry asked a
// different one than the first attempt, and a call whose outcome was unknown was charged an
// estimate from a text it never sent (more than its hold when the text grew).
import { describe, expect, it } from "vitest";
import { claim, inProcessRunner, newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { captureEstimate } from "@/lib/checks/create-check";
import { getCaptureDetail } from "@/lib/checks/queries";
import { retryCaptures } from "@/lib/checks/cancel-retry";
import { db } from "@/lib/db/prisma";
import { expireAttempt } from "@/lib/lifecycle/lease";
import { updatePrompt } from "@/lib/prompts/prompts";
import { promptInputSchema } from "@/lib/prompts/schemas";

process.env.BEACON_RETRY_BASE_MS = "1";
process.env.OPENAI_API_KEY = "sk-test-prompt-edit";

const runner = inProcessRunner();

const sentPrompt = (i: number) => JSON.stringify(runner.openai.requests[i]!.body);

async function reword(workspaceId: string, promptId: string, text: string, language?: string) {
  await updatePrompt(workspaceId, promptId, promptInputSchema.parse({ text, tags: [], language }));
}

describe("a prompt edited after its check was created", () => {
  it("is asked as it was when the check was created: by a queued capture, and by its retry after a failure", async () => {
    const space = await newSpace({ prompts: 1 });
    const original = (await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[0]! } })).text;
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    await reword(space.workspaceId, space.promptIds[0]!, "Which help desk is best for a school?", "de");

    const first = runner.openai.requests.length;
    runner.openai.enqueue({ kind: "status", status: 503 });
    expect(await runner.run(captureId)).toBe("retry");
    expect(await runner.run(captureId)).toBe("succeeded");
    expect(runner.openai.requests.length - first).toBe(2);
    for (const i of [first, first + 1]) {
      expect(sentPrompt(i)).toContain(original);
      expect(sentPrompt(i)).not.toContain("help desk");
    }
    // The capture shows the question it asked; the prompt keeps its new text for the next checks.
    const detail = await getCaptureDetail(space.workspaceId, captureId);
    expect(detail.prompt.text).toBe(original);
    expect((await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[0]! } })).text).toBe("Which help desk is best for a school?");

    // A check created after the edit asks the new text.
    const later = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    expect(await runner.run(later.captureIds[0]!)).toBe("succeeded");
    expect(sentPrompt(runner.openai.requests.length - 1)).toContain("help desk");
  });

  it("is asked as it was by an admin retry of a capture that failed before the edit", async () => {
    const space = await newSpace({ prompts: 1 });
    const original = (await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[0]! } })).text;
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    runner.openai.enqueue({ kind: "status", status: 400, body: { error: { message: "bad", type: "invalid_request_error", code: null } } });
    expect(await runner.run(captureIds[0]!)).toBe("failed");
    await reword(space.workspaceId, space.promptIds[0]!, "Which help desk is best for a hospital?");

    await retryCaptures(space.owner, { captureId: captureIds[0]! });
    expect(await runner.run(captureIds[0]!)).toBe("succeeded");
    expect(sentPrompt(runner.openai.requests.length - 1)).toContain(original);
  });

  it("waits for a check being created: an edit sent after the check read its prompts lands after its captures, which ask and hold the text it read", async () => {
    const space = await newSpace({ prompts: 1 });
    const original = (await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[0]! } })).text;
    const gate = gateAt("check:create-after-read");
    const starting = startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    await gate.reached;
    const editing = reword(space.workspaceId, space.promptIds[0]!, `Which CRM is best ${"for a very large team ".repeat(100)}?`);
    await Promise.race([editing, waitForLockWaiter(1)]); // the edit waits for the check, or (unguarded) commits now
    gate.open();
    const [{ captureIds }] = await Promise.all([starting, editing]);

    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0]! }, include: { promptVersion: true, connection: true } });
    expect(capture.promptVersion.text).toBe(original);
    expect(capture.reservedMicros, "held for the text it asks").toBe(BigInt(captureEstimate(capture.promptVersion.text, { ...capture.connection, searchMode: capture.searchMode })));
    expect((await db().prompt.findUniqueOrThrow({ where: { id: space.promptIds[0]! } })).text).toContain("very large team");
  });

  it("charges an unknown outcome the estimate of the text the call sent, not of the text it was edited to", async () => {
    // Two prompts of equal length; one is edited to the longest text allowed while its call is in flight.
    const space = await newSpace({ prompts: 2 });
    const { captureIds } = await startSpaceCheck(space, { prompts: 2, providers: ["OpenAI API"] });
    const rows = await db().capture.findMany({ where: { id: { in: captureIds } }, select: { id: true, promptId: true } });
    const edited = rows.find((c) => c.promptId === space.promptIds[0])!;
    const kept = rows.find((c) => c.promptId === space.promptIds[1])!;
    const runs = [await claim(edited.id, runner.workerId), await claim(kept.id, runner.workerId)];
    await reword(space.workspaceId, space.promptIds[0]!, `Which CRM is best ${"for a very large team ".repeat(180)}?`.slice(0, 3_999));

    for (const run of runs) await expireAttempt(run.runToken, "lease_expired");
    const cost = async (captureId: string) => (await db().attempt.findFirstOrThrow({ where: { captureId } })).costMicros;
    expect(await cost(edited.id)).toBe(await cost(kept.id));
  });
});
