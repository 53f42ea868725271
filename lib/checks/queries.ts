import "server-only";
import { inflectedForms } from "@/lib/analysis/inflection";
import { answerLanguage, type AnalysisLanguage } from "@/lib/analysis/language";
import type { CheckStatus } from "@/lib/captures/states";
import { checkTallies, checkTally, countsOf, type CheckTally } from "@/lib/captures/check-counts";
import { latestCheckOperation } from "@/lib/checks/operations";
import type { CheckOperationView } from "@/lib/checks/progress-state";
import { spentByCheck } from "@/lib/checks/spent";
import { startedBy, userNames } from "@/lib/checks/started-by";
import { db } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";


type CheckWithBrand = Prisma.CheckGetPayload<{ include: { brand: { select: { name: true } } } }>;

function checkSummary(check: CheckWithBrand, names: Map<string, string>, spentMicros: bigint, tally: CheckTally) {
  return {
    id: check.id,
    status: check.status as CheckStatus,
    brand: check.brand.name,
    startedBy: startedBy(check, names),
    startedById: check.startedById,
    createdAt: check.createdAt,
    finishedAt: check.finishedAt,
    samples: check.samples,
    counts: countsOf(tally),
    cancelRequested: check.cancelRequestedAt !== null,
    reservedMicros: Number(tally.reservedMicros),
    chargedMicros: Number(check.chargedMicros),
    /** Cost of every attempt so far, accepted or not (estimates included; those retention deleted too). */
    spentMicros: Number(spentMicros),
  };
}

export type CheckSummary = ReturnType<typeof checkSummary>;

export async function listChecks(workspaceId: string, query: { status?: CheckStatus; brandId?: string; page: number; pageSize: number }) {
  const where: Prisma.CheckWhereInput = { workspaceId, ...(query.status ? { status: query.status } : {}), ...(query.brandId ? { brandId: query.brandId } : {}) };
  const [checks, total] = await Promise.all([
    db().check.findMany({
      where,
      include: { brand: { select: { name: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db().check.count({ where }),
  ]);
  const ids = checks.map((c) => c.id);
  const [spent, names, tallies] = await Promise.all([spentByCheck(ids), userNames(checks.map((c) => c.startedById)), checkTallies(ids)]);
  return {
    items: checks.map((c) => checkSummary(c, names, spent.get(c.id) ?? 0n, tallies.get(c.id)!)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * A check with its counts and cost, and its latest cancel or retry with its outcome (a cancel
 * asked through the API runs as a job, as the page's does); the check page polls
 * lib/checks/progress.ts instead.
 */
export async function getCheckSummary(workspaceId: string, checkId: string): Promise<CheckSummary & { operation: CheckOperationView | null }> {
  const check = await db().check.findFirst({ where: { id: checkId, workspaceId }, include: { brand: { select: { name: true } } } });
  if (!check) throw new NotFoundError("That check does not exist in this workspace.");
  const [spent, names, tally, operation] = await Promise.all([spentByCheck([checkId]), userNames([check.startedById]), checkTally(checkId), latestCheckOperation(checkId)]);
  return { ...checkSummary(check, names, spent.get(checkId) ?? 0n, tally), operation };
}

/**
 * One page of a check's captures for the REST API, by prompt, provider and sample (the order of
 * the captures' unique index, so a page is an index range), with the prompt's text and the
 * provider's name. Scoped to `workspaceId`; the caller authorizes and has read the check.
 */
export async function listCheckCaptures(workspaceId: string, checkId: string, query: { page: number; pageSize: number }) {
  const captures = await db().capture.findMany({
    where: { checkId, workspaceId },
    select: {
      id: true,
      sample: true,
      status: true,
      attemptCount: true,
      latencyMs: true,
      costMicros: true,
      lastError: true,
      nextAttemptAt: true,
      prompt: { select: { id: true, text: true } },
      providerConfig: { select: { name: true } },
    },
    orderBy: [{ promptId: "asc" }, { providerConfigId: "asc" }, { sample: "asc" }],
    skip: (query.page - 1) * query.pageSize,
    take: query.pageSize,
  });
  return captures.map((c) => ({
    id: c.id,
    prompt: c.prompt,
    provider: c.providerConfig.name,
    sample: c.sample,
    status: c.status,
    attempts: c.attemptCount,
    latencyMs: c.latencyMs,
    costMicros: Number(c.costMicros),
    lastError: c.lastError,
    nextAttemptAt: c.nextAttemptAt,
  }));
}

/** A tracked entity's aliases and the inflected forms of its names in `language` (lib/analysis/inflection.ts). */
function highlighted(entity: { name: string; aliases: string[]; caseSensitiveAliases: string[] }, language: AnalysisLanguage): string[] {
  const names = [entity.name, ...entity.aliases, ...entity.caseSensitiveAliases];
  return [...new Set([...names.slice(1), ...names.flatMap((n) => inflectedForms(n, language))])];
}

export async function getCaptureDetail(workspaceId: string, captureId: string) {
  const capture = await db().capture.findFirst({
    where: { id: captureId, workspaceId },
    include: {
      prompt: { select: { text: true, tags: true } },
      promptVersion: { select: { text: true, country: true, city: true, language: true } },
      providerConfig: { select: { name: true, connection: { select: { adapter: true, name: true } } } },
      attempts: { orderBy: { number: "asc" } },
      citations: { orderBy: { position: "asc" } },
      searchQueries: { orderBy: { position: "asc" } },
      mentions: { orderBy: [{ position: "asc" }, { name: "asc" }] },
      events: { orderBy: { createdAt: "asc" } },
      check: { select: { id: true, startedById: true } },
      brand: { select: { name: true, aliases: true, caseSensitiveAliases: true, competitors: { select: { name: true, aliases: true, caseSensitiveAliases: true } } } },
    },
  });
  if (!capture) throw new NotFoundError("That capture does not exist in this workspace.");
  const language = answerLanguage(capture.answerText ?? "", capture.promptVersion.language);
  const names = await userNames([...capture.events.map((e) => e.actorUserId), capture.cancelledById]);
  return {
    id: capture.id,
    checkId: capture.checkId,
    startedById: capture.check.startedById,
    status: capture.status,
    sample: capture.sample,
    model: capture.model,
    searchMode: capture.searchMode,
    provider: { name: capture.providerConfig.name, adapter: capture.providerConfig.connection.adapter, connection: capture.providerConfig.connection.name },
    /** The question as this capture asked it (its check's wording), with the prompt's tags. */
    prompt: { ...capture.promptVersion, tags: capture.prompt.tags },
    /** The prompt's wording now, when it was edited after this capture was made. */
    promptTextNow: capture.prompt.text !== capture.promptVersion.text ? capture.prompt.text : null,
    answerText: capture.answerText,
    /** The engine showed no answer for the query (Google showed no AI Overview): a result, not an error. */
    noAnswer: capture.status === "succeeded" && capture.answerText === null,
    answerIsPartial: capture.answerIsPartial,
    /** Mentions and citations come from the answer's first ANALYSIS_MAX_CHARS characters only. */
    analysisTruncated: capture.analysisTruncated,
    lastError: capture.lastError,
    costMicros: Number(capture.costMicros),
    latencyMs: capture.latencyMs,
    attemptCount: capture.attemptCount,
    spentAttempts: capture.spentAttempts,
    maxAttempts: capture.maxAttempts,
    nextAttemptAt: capture.nextAttemptAt,
    waitingFor: capture.waitingFor,
    cancelRequested: capture.cancelRequestedAt !== null,
    attempts: capture.attempts.map((a) => ({
      number: a.number,
      workerId: a.workerId,
      startedAt: a.startedAt,
      endedAt: a.endedAt,
      outcome: a.outcome,
      reason: a.reason,
      errorClass: a.errorClass,
      httpStatus: a.httpStatus,
      providerRequestId: a.providerRequestId,
      inputTokens: a.inputTokens,
      outputTokens: a.outputTokens,
      reasoningTokens: a.reasoningTokens,
      cachedTokens: a.cachedTokens,
      searchCalls: a.searchCalls,
      costMicros: Number(a.costMicros),
      costIsEstimate: a.costIsEstimate,
      latencyMs: a.latencyMs,
    })),
    citations: capture.citations.map((c) => ({ url: c.url, title: c.title, domain: c.domain, isOwnDomain: c.isOwnDomain, citedInText: c.citedInText })),
    searchQueries: capture.searchQueries.map((q) => q.query),
    mentions: capture.mentions.map((m) => ({ name: m.name, kind: m.kind, mentioned: m.mentioned, count: m.count, position: m.position, sentiment: m.sentiment })),
    /** The names the analysis looks for, with their forms in the answer's language («Люмена»), to highlight them. */
    entities: [
      { name: capture.brand.name, kind: "brand" as const, aliases: highlighted(capture.brand, language) },
      ...capture.brand.competitors.map((c) => ({ name: c.name, kind: "competitor" as const, aliases: highlighted(c, language) })),
    ],
    events: capture.events.map((e) => ({ kind: e.kind, at: e.createdAt, by: e.actorUserId ? (names.get(e.actorUserId) ?? "a former member") : e.actorApiKeyId ? "API" : "system", data: e.data })),
  };
}

export type CaptureDetail = Awaited<ReturnType<typeof getCaptureDetail>>;
