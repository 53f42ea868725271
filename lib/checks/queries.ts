import "server-only";
import type { CheckStatus } from "@/lib/captures/states";
import { checkTallies, checkTally, type CheckTally } from "@/lib/checks/counts";
import { db } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";


async function userNames(ids: (string | null)[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (!unique.length) return new Map();
  const users = await db().user.findMany({ where: { id: { in: unique } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}

/** Who started a check: a member (through the UI or their API key), an old API key with no member, or a schedule. */
function startedBy(check: { startedById: string | null; apiKeyId: string | null }, names: Map<string, string>): string {
  if (!check.startedById) return check.apiKeyId ? "API" : "schedule";
  const name = names.get(check.startedById) ?? "a former member";
  return check.apiKeyId ? `${name} (API key)` : name;
}

function checkSummary(check: Prisma.CheckGetPayload<{ include: { brand: { select: { name: true } } } }>, tally: CheckTally, names: Map<string, string>, spentMicros: bigint) {
  return {
    id: check.id,
    status: check.status as CheckStatus,
    brand: check.brand.name,
    startedBy: startedBy(check, names),
    startedById: check.startedById,
    createdAt: check.createdAt,
    finishedAt: check.finishedAt,
    samples: check.samples,
    counts: {
      total: check.totalCaptures,
      queued: tally.queued,
      running: tally.running,
      succeeded: tally.succeeded,
      failed: tally.failed,
      cancelled: tally.cancelled,
    },
    cancelRequested: check.cancelRequestedAt !== null,
    reservedMicros: Number(tally.reservedMicros),
    chargedMicros: Number(check.chargedMicros),
    /** Cost of every attempt so far, accepted or not (estimates included). */
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
  const spent = await db().$queryRaw<{ checkId: string; micros: bigint }[]>`
    SELECT c."checkId", sum(a."costMicros")::bigint AS micros FROM attempts a JOIN captures c ON c.id = a."captureId"
    WHERE c."checkId" = ANY(${ids}::uuid[]) GROUP BY c."checkId"`;
  const spentByCheck = new Map(spent.map((row) => [row.checkId, row.micros]));
  const [names, tallies] = await Promise.all([userNames(checks.map((c) => c.startedById)), checkTallies(ids)]);
  return { items: checks.map((c) => checkSummary(c, tallies.get(c.id)!, names, spentByCheck.get(c.id) ?? 0n)), total, page: query.page, pageSize: query.pageSize };
}

/** Everything the check page shows; polled every second while the check runs. */
export async function getCheckProgress(workspaceId: string, checkId: string) {
  const check = await db().check.findFirst({ where: { id: checkId, workspaceId }, include: { brand: { select: { name: true } } } });
  if (!check) throw new NotFoundError("That check does not exist in this workspace.");
  const captures = await db().capture.findMany({
    where: { checkId },
    select: {
      id: true,
      promptId: true,
      providerConfigId: true,
      sample: true,
      status: true,
      attemptCount: true,
      latencyMs: true,
      costMicros: true,
      lastError: true,
      cancelRequestedAt: true,
      nextAttemptAt: true,
      waitingFor: true,
    },
    // A stable order: rows must not move while the check page polls.
    orderBy: [{ sample: "asc" }, { promptId: "asc" }, { providerConfigId: "asc" }],
  });
  const [prompts, providers, spent, names, tally] = await Promise.all([
    db().prompt.findMany({ where: { id: { in: [...new Set(captures.map((c) => c.promptId))] } }, select: { id: true, text: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db().providerConfig.findMany({ where: { id: { in: [...new Set(captures.map((c) => c.providerConfigId))] } }, select: { id: true, name: true, model: true }, orderBy: { name: "asc" } }),
    db().attempt.aggregate({ where: { capture: { checkId } }, _sum: { costMicros: true } }),
    userNames([check.startedById]),
    checkTally(checkId),
  ]);
  return {
    check: checkSummary(check, tally, names, spent._sum.costMicros ?? 0n),
    prompts,
    providers,
    captures: captures.map((c) => ({ ...c, costMicros: Number(c.costMicros), cancelRequested: c.cancelRequestedAt !== null, cancelRequestedAt: undefined })),
  };
}

export type CheckProgress = Awaited<ReturnType<typeof getCheckProgress>>;

export async function getCaptureDetail(workspaceId: string, captureId: string) {
  const capture = await db().capture.findFirst({
    where: { id: captureId, workspaceId },
    include: {
      prompt: { select: { text: true, tags: true, country: true, language: true } },
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
    prompt: capture.prompt,
    answerText: capture.answerText,
    answerIsPartial: capture.answerIsPartial,
    /** Mentions and citations come from the answer's first ANALYSIS_MAX_CHARS characters only. */
    analysisTruncated: capture.analysisTruncated,
    lastError: capture.lastError,
    costMicros: Number(capture.costMicros),
    latencyMs: capture.latencyMs,
    attemptCount: capture.attemptCount,
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
    /** The names the analysis looks for, to highlight them in the answer. */
    entities: [
      { name: capture.brand.name, kind: "brand" as const, aliases: [...capture.brand.aliases, ...capture.brand.caseSensitiveAliases] },
      ...capture.brand.competitors.map((c) => ({ name: c.name, kind: "competitor" as const, aliases: [...c.aliases, ...c.caseSensitiveAliases] })),
    ],
    events: capture.events.map((e) => ({ kind: e.kind, at: e.createdAt, by: e.actorUserId ? (names.get(e.actorUserId) ?? "a former member") : e.actorApiKeyId ? "API" : "system", data: e.data })),
  };
}

export type CaptureDetail = Awaited<ReturnType<typeof getCaptureDetail>>;
