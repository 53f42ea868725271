import "server-only";
import { randomUUID } from "node:crypto";
import { assertStillCan } from "@/lib/api-keys/api-keys";
import { reserveCall } from "@/lib/billing/budget";
import { costOf, unknownOutcomeCost } from "@/lib/billing/money";
import { activeRuns } from "@/lib/captures/active-runs";
import { pausePoint } from "@/lib/db/pause-points";
import { assertUsable, grantedConnections } from "@/lib/connections/connections";
import { databaseNow } from "@/lib/db/clock";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError, UserError, lastLine } from "@/lib/errors";
import type { ProviderConnection } from "@/lib/generated/prisma/client";
import { enqueueSetupSuggestions } from "@/lib/jobs/enqueue";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor, engineOf, isAdapterName, notConfiguredReason } from "@/lib/providers/registry";
import { simulateSetupCall } from "@/lib/providers/simulator-setup-suggestions";
import type { CallLimits, ProviderResponse } from "@/lib/providers/types";
import { canRunSetup } from "@/lib/permissions/permissions";
import { parseProposal, ProposalError } from "@/lib/setup/parse-proposal";
import { setupCallLimits, setupPrompt, setupWorstCase } from "@/lib/setup/prompt";
import { claimSetupRun, finishSetupRun, type SetupOutcome } from "@/lib/setup/run";
import type { SetupProposal, SetupSuggestionStatus } from "@/lib/setup/schemas";

// A first run's suggestions (issue 12, item 4): the request stores a row, reserves the call's
// worst case on the budget and the grant, and enqueues the job, in one transaction (nothing is
// called in the web request); the worker makes the one call and settles the reservation at the
// actual cost (lib/billing/budget.ts, the same ledgers as captures), fenced like a capture's run
// (lib/setup/run.ts). The caller authorizes.

/**
 * Whether a connection's engine writes answers to any instruction (Engine.writesAnswers): the
 * SERP-based ones return what a search page shows, never our JSON. An engine this code does not
 * know is not the SERP kind either (as before the adapter column was text).
 */
const canGenerateSetup = (adapter: string) => !isAdapterName(adapter) || engineOf(adapter).writesAnswers;

/** The connections the wizard may generate with: granted to the workspace, switched on, configured here, and generative. */
export async function setupConnections(workspaceId: string) {
  const connections = await grantedConnections(workspaceId);
  return connections.filter((c) => c.configured && canGenerateSetup(c.adapter) && c.models.length).map((c) => ({ id: c.id, name: c.name, adapter: c.adapter, simulator: c.adapter === "simulator" }));
}

/** How long an unused answer is given again to the same question (a resubmit), rather than paying for another call. */
const SAME_ANSWER_MS = 10 * 60_000;

export type SetupRequest = { workspaceId: string; userId: string | null; domain: string; address?: string; offering?: string; language: string; country?: string; connectionId: string };

/**
 * Stores the request, reserves its call and enqueues it; the same question (address, what the
 * site sells, language, country, connection) still waiting or running, or answered in the last
 * ten minutes and not used yet, is answered with that request instead, so a double click, a
 * second tab or a resubmit after a lost response does not pay for a second call (under a
 * per-workspace lock, so two at once see each other).
 */
export async function requestSetupSuggestions(request: SetupRequest): Promise<{ suggestionId: string }> {
  return transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`setup:${request.workspaceId}`}, 0))`;
    // The requester's role read again under a share lock held until this commits, as a check's
    // start reads it: one removed or made a viewer since the action's check gets no paid call.
    if (request.userId) await assertStillCan(tx, { workspaceId: request.workspaceId, userId: request.userId }, canRunSetup, "You can no longer set up this workspace.");
    const waiting = await tx.setupSuggestion.findFirst({
      where: {
        workspaceId: request.workspaceId,
        // Waiting or running, or answered in the last minutes and not yet used: a resubmit after a
        // lost response (the call took seconds) gets the answer it paid for, not a second call.
        OR: [{ status: { in: ["queued", "running"] } }, { status: "succeeded", checkId: null, finishedAt: { gt: new Date((await databaseNow()).getTime() - SAME_ANSWER_MS) } }],
        domain: request.domain,
        address: request.address ?? null,
        offering: request.offering ?? null,
        language: request.language,
        country: request.country ?? null,
        connectionId: request.connectionId,
      },
      select: { id: true },
    });
    if (waiting) return { suggestionId: waiting.id };
    const known = await tx.providerConnection.findUnique({ where: { id: request.connectionId }, select: { models: true } });
    // Refuses a connection that is not granted to this workspace or is switched off.
    const connection = await assertUsable(tx, request.workspaceId, request.connectionId, known?.models[0] ?? "");
    if (!canGenerateSetup(connection.adapter)) throw new UserError(`${connection.name} returns search results, not written answers: pick another connection.`, { field: "connectionId" });
    const notConfigured = notConfiguredReason(connection.adapter, connection.settings);
    if (notConfigured) throw new UserError(`${connection.name} is not configured on this server: ${notConfigured}`, { field: "connectionId" });
    const worstMicros = setupWorstCase(request, connection);
    const period = await reserveCall(tx, { workspaceId: request.workspaceId, connectionId: connection.id, worstMicros });
    const row = await tx.setupSuggestion.create({
      data: {
        workspaceId: request.workspaceId,
        requestedById: request.userId,
        domain: request.domain,
        address: request.address ?? null,
        offering: request.offering ?? null,
        language: request.language,
        country: request.country ?? null,
        connectionId: connection.id,
        model: connection.models[0]!,
        reservedMicros: BigInt(worstMicros),
        budgetPeriod: period,
      },
      select: { id: true },
    });
    await enqueueSetupSuggestions(tx, { suggestionId: row.id });
    return { suggestionId: row.id };
  });
}

export type SetupSuggestionView = {
  id: string;
  status: SetupSuggestionStatus;
  domain: string;
  /** The website as typed (host and path); null on rows from before it was kept. */
  address: string | null;
  language: string;
  country: string | null;
  connection: string;
  /** Written by the simulator: invented from the address's words, which the editor says. */
  simulated: boolean;
  offering: string | null;
  proposal: SetupProposal | null;
  error: string | null;
  costMicros: number | null;
  checkId: string | null;
};

/** One suggestion of the workspace, as the wizard polls it. */
export async function getSetupSuggestion(workspaceId: string, suggestionId: string): Promise<SetupSuggestionView> {
  const row = await db().setupSuggestion.findFirst({ where: { id: suggestionId, workspaceId }, include: { connection: { select: { name: true, adapter: true } } } });
  if (!row) throw new NotFoundError("That suggestion does not exist in this workspace.");
  return {
    id: row.id,
    status: row.status,
    domain: row.domain,
    address: row.address,
    language: row.language,
    country: row.country,
    connection: row.connection.name,
    simulated: row.connection.adapter === "simulator",
    offering: row.offering,
    proposal: (row.result as SetupProposal | null) ?? null,
    error: row.error,
    costMicros: row.costMicros === null ? null : Number(row.costMicros),
    checkId: row.checkId,
  };
}

/**
 * The job: claim the row under this worker's lease, make the one call, then the guarded finish
 * (lib/setup/run.ts). A row another run holds, or one already finished, is left alone
 * ("skipped", nothing called); a run swept while it called writes nothing ("lost"). A worker that
 * crashes mid-call leaves the row `running` until the sweeper ends it, charged its estimate.
 */
export async function runSetupSuggestions(
  suggestionId: string,
  options: { workerId: string; signal?: AbortSignal; log?: (line: string) => void },
): Promise<SetupSuggestionStatus | "skipped" | "lost"> {
  const runToken = randomUUID();
  // Listed in this worker's heartbeat from before the claim until the run is over, so the
  // sweeper tells a run in progress from one given up (lib/captures/active-runs.ts).
  activeRuns.add(runToken);
  try {
    const claim = await claimSetupRun(suggestionId, runToken, options.workerId);
    if (claim.kind === "skipped") return "skipped";
    if (claim.kind === "refused") {
      options.log?.(`setup suggestion ${suggestionId}: refused (the connection may no longer be used, or the call no longer fits the budget), nothing called`);
      return "failed";
    }
    await pausePoint("setup:claimed", { suggestionId });
    // The call is made and charged with the connection as the claim read it (claimSetupRun).
    const { run } = claim;
    const outcome = await callFor(run, options.signal);
    options.log?.(`setup suggestion ${suggestionId}: ${outcome.status}${outcome.status === "failed" ? ` (${outcome.error})` : ""}`);
    await pausePoint("setup:after-provider", { suggestionId });
    if (await finishSetupRun(run, outcome)) return outcome.status;
    options.log?.(`setup suggestion ${suggestionId}: run ${runToken} was taken over by the sweeper; its result is not written`);
    return "lost";
  } finally {
    activeRuns.delete(runToken);
  }
}

/** The call and what it came to: the parsed proposal, or why not, and what it cost. */
async function callFor(row: Loaded & { reservedMicros: bigint }, shutdown: AbortSignal | undefined): Promise<SetupOutcome> {
  const { connection } = row;
  const prompt = setupPrompt(row);
  const limits = setupCallLimits(connection);
  const controller = new AbortController();
  const onShutdown = () => controller.abort("shutdown");
  shutdown?.addEventListener("abort", onShutdown, { once: true });
  const timeout = setTimeout(() => controller.abort("timeout"), connection.timeoutMs);
  try {
    const response = await call(row, prompt, limits, controller.signal);
    const costMicros = costOf(response.usage, connection); // charged at most the reservation (finishSetupRun)
    try {
      return { status: "succeeded", result: parseProposal(response.text, row), costMicros };
    } catch (error) {
      if (!(error instanceof ProposalError)) throw error;
      return { status: "failed", error: error.message, costMicros }; // the provider did the work: it is paid
    }
  } catch (error) {
    return { status: "failed", error: messageOf(error), costMicros: costOfFailure(error, prompt, limits, connection) };
  } finally {
    clearTimeout(timeout);
    shutdown?.removeEventListener("abort", onShutdown);
  }
}

type Loaded = { domain: string; address: string | null; offering: string | null; language: string; country: string | null; model: string; connection: ProviderConnection };

async function call(row: Loaded, prompt: string, limits: CallLimits, signal: AbortSignal): Promise<ProviderResponse> {
  const { connection } = row;
  // The simulator answers the setup question itself (not by recognising the prompt's text).
  if (connection.adapter === "simulator") return simulateSetupCall({ prompt, domain: row.domain, address: row.address, offering: row.offering, language: row.language, country: row.country, signal });
  const adapter = adapterFor(connection.adapter);
  const notConfigured = notConfiguredReason(connection.adapter, connection.settings);
  if (!adapter || notConfigured) throw new ProviderError(`${connection.name} is not configured on this server: ${notConfigured}`, { retryClass: "permanent", reason: "not_configured" });
  return adapter.call({
    prompt,
    model: row.model,
    searchMode: "off",
    language: row.language,
    country: row.country,
    signal,
    settings: (connection.settings ?? {}) as Record<string, unknown>,
    limits,
  });
}

/** Calls that may have been billed (no answer in time, cut off) are charged their estimate, as attempts are. */
function costOfFailure(error: unknown, prompt: string, limits: CallLimits, price: Parameters<typeof unknownOutcomeCost>[3]): number {
  const unknown = error instanceof CallAbortedError || (error instanceof ProviderError && error.retryClass === "unknown") || !(error instanceof ProviderError);
  return unknown ? unknownOutcomeCost(prompt, "off", limits, price) : 0;
}

function messageOf(error: unknown): string {
  if (error instanceof CallAbortedError) return error.abortReason === "timeout" ? "The provider did not answer in time. Try again." : "The call was interrupted (the worker stopped). Try again.";
  if (error instanceof ProviderError) return `The provider refused: ${error.message}${error.retryClass === "transient" ? " Try again in a moment." : ""}`;
  return `Unexpected error: ${lastLine(error)}`;
}
