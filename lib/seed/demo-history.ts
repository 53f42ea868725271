import "server-only";
import { randomUUID } from "node:crypto";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { candidateRows, mentionRows } from "@/lib/analysis/rows";
import { recordRollups } from "@/lib/analytics/rollups";
import { costOf } from "@/lib/billing/money";
import { startReanalysis } from "@/lib/brands/reanalysis";
import { pausePoint } from "@/lib/db/pause-points";
import { bulkInsert } from "@/lib/db/bulk-insert";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
import { answerLanguageOf } from "@/lib/providers/simulator-languages";
import { seededRandom } from "@/lib/providers/simulator-random";
import { simulatorSettingsSchema } from "@/lib/providers/simulator-settings";
import { simulateAnswer } from "@/lib/providers/simulator";

const DAY = 24 * 3600 * 1000;

/**
 * Simulated history for the demo workspace: one completed check a day for `days` days, every
 * prompt on every simulated provider, answered by the simulator and analysed by the same code
 * as real captures, so the dashboards have something to show on first run. The brand slowly
 * gains visibility, and a few attempts fail and are retried, as in real life. Marked isDemo.
 */
export async function seedDemoHistory(workspaceId: string, options: { days?: number; now?: Date } = {}): Promise<{ checks: number; captures: number }> {
  const days = options.days ?? 90;
  const now = options.now ?? new Date();
  const [brand, prompts, providers] = await Promise.all([
    db().brand.findFirstOrThrow({ where: { workspaceId }, include: { competitors: { orderBy: { createdAt: "asc" } } }, orderBy: { createdAt: "asc" } }),
    db().prompt.findMany({ where: { workspaceId, deletedAt: null }, orderBy: { createdAt: "asc" } }),
    db()
      .providerConfig.findMany({ where: { workspaceId, enabled: true, connection: { adapter: "simulator" } }, include: { connection: true }, orderBy: { name: "asc" } })
      // The connection's settings, prices and limits, with the provider's own name, model and search mode.
      .then((rows) => rows.map(({ connection, ...p }) => ({ ...connection, ...p }))),
  ]);
  const random = seededRandom(`demo-history:${workspaceId}`);
  const untracked = seededRandom(`demo-history:${workspaceId}:untracked`);
  // Rows in the shape Prisma would insert them (checked against its types), inserted in bulk.
  const checks: Prisma.CheckCreateManyInput[] = [];
  const captures: Prisma.CaptureCreateManyInput[] = [];
  const attempts: Prisma.AttemptCreateManyInput[] = [];
  const mentions: Prisma.MentionCreateManyInput[] = [];
  const citations: Prisma.CitationCreateManyInput[] = [];
  const queries: Prisma.SearchQueryCreateManyInput[] = [];
  const candidates: Prisma.CaptureCandidateCreateManyInput[] = [];

  for (let day = days; day >= 1; day--) {
    const checkStartedAt = Math.floor((now.getTime() - day * DAY) / DAY) * DAY + 9 * 3600 * 1000 + random.int(0, 3600) * 1000;
    let checkFinishedAt = checkStartedAt;
    const checkId = randomUUID();
    let charged = 0;
    const progress = (days - day) / days; // 0 at the start, 1 today
    for (const provider of providers) {
      const settings = simulatorSettingsSchema.parse(provider.settings ?? {});
      // As a worker runs them: the provider's calls `maxConcurrency` at a time, each taking what
      // the simulator takes for this assistant (a few seconds, its settings' latency range).
      const slots: number[] = Array.from({ length: Math.max(1, provider.maxConcurrency) }, () => checkStartedAt);
      const latency = () => random.int(settings.latencyMinMs, Math.max(settings.latencyMinMs, settings.latencyMaxMs));
      // Each assistant warms to the brand at its own pace.
      const brandChance = 0.35 + 0.45 * progress + (provider.name.length % 3) * 0.05;
      for (const prompt of prompts) {
        const captureId = randomUUID();
        const answer = simulateAnswer({
          prompt: prompt.text,
          searchMode: provider.searchMode,
          limits: { maxOutputTokens: provider.maxOutputTokens, maxSearchCalls: provider.maxSearchCalls },
          subject: { brand: { name: brand.name, aliases: brand.aliases, domains: brand.domains }, competitors: brand.competitors },
          language: answerLanguageOf(prompt.language, prompt.text),
          style: settings.style,
          random,
          untracked,
          brandChance,
        });
        const cost = costOf(answer.usage, provider);
        const slot = slots.indexOf(Math.min(...slots));
        const startedAt = new Date(slots[slot]!);
        const retried = random.next() < 0.06;
        const attempt = { workspaceId, captureId, workerId: "demo", costIsEstimate: false };
        const noUsage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 };
        // A rate limit answers at once; the retry follows after a backoff of a second or two.
        const rateLimitedMs = 300;
        const answeredFrom = retried ? new Date(startedAt.getTime() + rateLimitedMs + random.int(1000, 2000)) : startedAt;
        const latencyMs = latency();
        const finishedAt = new Date(answeredFrom.getTime() + latencyMs);
        slots[slot] = finishedAt.getTime();
        checkFinishedAt = Math.max(checkFinishedAt, finishedAt.getTime());
        if (retried) {
          attempts.push({
            ...attempt,
            startedAt,
            number: 1,
            runToken: randomUUID(),
            endedAt: new Date(startedAt.getTime() + rateLimitedMs),
            outcome: "failed",
            reason: "rate_limited",
            errorClass: "transient",
            httpStatus: 429,
            ...noUsage,
            costMicros: 0,
            latencyMs: rateLimitedMs,
          });
        }
        attempts.push({
          ...attempt,
          startedAt: answeredFrom,
          number: retried ? 2 : 1,
          runToken: randomUUID(),
          endedAt: finishedAt,
          outcome: "succeeded",
          reason: null,
          errorClass: null,
          httpStatus: null,
          ...answer.usage,
          costMicros: cost,
          latencyMs,
        });
        captures.push({
          id: captureId,
          workspaceId,
          checkId,
          brandId: brand.id,
          promptId: prompt.id,
          providerConfigId: provider.id,
          connectionId: provider.connectionId,
          sample: 1,
          status: "succeeded",
          attemptCount: retried ? 2 : 1,
          spentAttempts: retried ? 1 : 0, // its failed first call, as beacon_close_attempt counts it
          maxAttempts: provider.maxAttempts,
          model: provider.model,
          searchMode: provider.searchMode,
          answerText: answer.text,
          costMicros: cost,
          latencyMs,
          startedAt,
          finishedAt,
          analyzedAt: finishedAt,
          analysisVersion: brand.analysisVersion,
          createdAt: new Date(checkStartedAt),
          updatedAt: finishedAt,
        });
        charged += cost;
        const analysis = analyzeAnswer({ answer: answer.text, brand, competitors: brand.competitors, sources: answer.sources, language: prompt.language });
        for (const row of mentionRows(analysis, brand.id, brand.competitors.map((c) => c.id))) mentions.push({ ...row, workspaceId, captureId });
        analysis.citations.forEach((c, i) => citations.push({ ...c, workspaceId, captureId, position: i + 1 }));
        for (const row of candidateRows(analysis)) candidates.push({ ...row, captureId, workspaceId, brandId: brand.id, finishedAt, providerConfigId: provider.id, promptId: prompt.id });
        answer.searchQueries.forEach((query, i) => queries.push({ workspaceId, captureId, query, position: i + 1 }));
      }
    }
    const total = providers.length * prompts.length;
    checks.push({
      id: checkId,
      workspaceId,
      brandId: brand.id,
      isDemo: true,
      status: "completed",
      totalCaptures: total,
      chargedMicros: charged,
      createdAt: new Date(checkStartedAt),
      updatedAt: new Date(checkFinishedAt),
      finishedAt: new Date(checkFinishedAt),
    });
  }
  await pausePoint("demo:before-insert", {});
  await transaction(
    async (tx) => {
      // The brand as of now, held until the commit (an edit waits): the answers were analysed with
      // the version read above, seconds ago; if an edit raised it since, they are stale, and the
      // edit's re-analysis counted none of them (not inserted yet), so one is queued here.
      const [now] = await tx.$queryRaw<{ analysisVersion: number }[]>`SELECT "analysisVersion" FROM brands WHERE id = ${brand.id}::uuid FOR SHARE`;
      await bulkInsert(tx, "checks", checks);
      await bulkInsert(tx, "captures", captures);
      await bulkInsert(tx, "attempts", attempts);
      await bulkInsert(tx, "mentions", mentions);
      await bulkInsert(tx, "citations", citations);
      await bulkInsert(tx, "search_queries", queries);
      await bulkInsert(tx, "capture_candidates", candidates);
      await recordRollups(tx, captures.map((c) => c.id!));
      if (now && now.analysisVersion !== brand.analysisVersion) await startReanalysis(tx, workspaceId, brand.id);
    },
    { timeoutMs: 120_000 },
  );
  return { checks: checks.length, captures: captures.length };
}
