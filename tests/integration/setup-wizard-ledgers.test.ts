// The setup wizard's paid call against the lifecycle's ledgers and fencing (issue 17, defects 3
// and 4). The wizard reserves its worst case "in flight" without an attempt row, so:
// - the repair pass must count that reservation as in flight (one definition, the view
//   beacon_in_flight), or it "repairs" it away and claims get past the hard cap.
import { describe, expect, it } from "vitest";
import { worstCaseCost } from "@/lib/billing/money";
import { runRepairPass } from "@/lib/captures/lifecycle/repair";
import { db } from "@/lib/db/prisma";
import { requestSetupSuggestions, runSetupSuggestions } from "@/lib/setup/suggestions";
import { budgetNow, claim, expectBudgetConsistent, liveWorker, newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { gateAt } from "../support/pause";

/** A grant's spend on a connection this month, over its shards. */
async function grantNow(workspaceId: string, connectionId: string) {
  const [row] = await db().$queryRaw<{ inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT sum("inFlightMicros")::bigint AS "inFlight", sum("chargedMicros")::bigint AS charged FROM grant_spend_periods
    WHERE "workspaceId" = ${workspaceId}::uuid AND "connectionId" = ${connectionId}::uuid AND "periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
  return { inFlight: row?.inFlight ?? 0n, charged: row?.charged ?? 0n };
}

/** No month of the workspace has a negative sum, on the budget or on any grant. */
async function expectNothingNegative(workspaceId: string) {
  const [row] = await db().$queryRaw<{ negative: number }[]>`
    SELECT ((SELECT count(*) FROM (SELECT 1 FROM budget_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY "periodStart"
              HAVING sum("reservedMicros") < 0 OR sum("inFlightMicros") < 0 OR sum("chargedMicros") < 0) b)
          + (SELECT count(*) FROM (SELECT 1 FROM grant_spend_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY "connectionId", "periodStart"
              HAVING sum("inFlightMicros") < 0 OR sum("chargedMicros") < 0) g))::int AS negative`;
  expect(row!.negative, "months with a negative sum").toBe(0);
}

describe("the wizard's reservation is in flight for the repair pass", () => {
  it("a call held in flight: the repair pass repairs nothing, a claim that does not fit beside it is refused, and it settles exactly", async () => {
    const space = await newSpace({ prompts: 1 });
    const workerId = await liveWorker();
    const connectionId = space.connections.ChatGPT!;
    const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "acme-crm.com", language: "en", connectionId });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;

    // The budget fits the wizard's worst case and a capture's worst case minus one micro-dollar.
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0]! }, include: { connection: true, prompt: true } });
    const c = capture.connection;
    const captureWorst = worstCaseCost(capture.prompt.text, capture.searchMode, { maxOutputTokens: c.maxOutputTokens, maxSearchCalls: c.maxSearchCalls }, c);
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: reserved + BigInt(captureWorst) - 1n } });

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const running = runSetupSuggestions(suggestionId);
    await held.reached;

    expect(await runRepairPass(), "nothing to repair while the wizard's call is in flight").toEqual({});
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(reserved);
    expect((await grantNow(space.workspaceId, connectionId)).inFlight).toBe(reserved);
    // The hard cap still counts the wizard's call: the capture's worst case does not fit beside it.
    expect((await claim(captureIds[0]!, workerId)).result.kind).toBe("waiting_for_budget");
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(reserved);

    held.open();
    expect(await running).toBe("succeeded");
    const cost = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).costMicros!;
    expect(cost).toBeGreaterThan(0n);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: cost });
    expect(await grantNow(space.workspaceId, connectionId)).toEqual({ inFlight: 0n, charged: cost });
    await expectNothingNegative(space.workspaceId);
    expect(await runRepairPass(), "nothing to repair after it settled").toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  });
});
