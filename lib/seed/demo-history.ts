import "server-only";
import { randomUUID } from "node:crypto";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { mentionRows } from "@/lib/analysis/rows";
import { costOf } from "@/lib/billing/money";
import { bulkInsert } from "@/lib/db/bulk-insert";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { seededRandom } from "@/lib/providers/simulator/random";
import { simulatorSettingsSchema } from "@/lib/providers/simulator/settings";
import { simulateAnswer } from "@/lib/providers/simulator/simulator";

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
    db().providerConfig.findMany({ where: { workspaceId, adapter: "simulator" }, orderBy: { name: "asc" } }),
  ]);
  const random = seededRandom(`demo-history:${workspaceId}`);
  // Rows in the shape Prisma would insert them (checked against its types), inserted in bulk.
  const checks: Prisma.CheckCreateManyInput[] = [];
  const captures: Prisma.CaptureCreateManyInput[] = [];
  const attempts: Prisma.AttemptCreateManyInput[] = [];
  const mentions: Prisma.MentionCreateManyInput[] = [];
  const citations: Prisma.CitationCreateManyInput[] = [];
  const queries: Prisma.SearchQueryCreateManyInput[] = [];

  for (let day = days; day >= 1; day--) {
    const startedAt = new Date(Math.floor((now.getTime() - day * DAY) / DAY) * DAY + 9 * 3600 * 1000 + random.int(0, 3600) * 1000);
    const checkId = randomUUID();
    let charged = 0;
    const progress = (days - day) / days; // 0 at the start, 1 today
    for (const provider of providers) {
      const settings = simulatorSettingsSchema.parse(provider.settings ?? {});
      // Each assistant warms to the brand at its own pace.
      const brandChance = 0.35 + 0.45 * progress + (provider.name.length % 3) * 0.05;
      for (const prompt of prompts) {
        const captureId = randomUUID();
        const answer = simulateAnswer({
          prompt: prompt.text,
          searchMode: provider.searchMode,
          limits: { maxOutputTokens: provider.maxOutputTokens, maxSearchCalls: provider.maxSearchCalls },
          subject: { brand: { name: brand.name, domains: brand.domains }, competitors: brand.competitors },
          style: settings.style,
          random,
          brandChance,
        });
        const cost = costOf(answer.usage, provider);
        const finishedAt = new Date(startedAt.getTime() + random.int(2, 120) * 1000);
        const retried = random.next() < 0.06;
        const attempt = { workspaceId, captureId, workerId: "demo", startedAt, costIsEstimate: false };
        const noUsage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 };
        if (retried) {
          attempts.push({ ...attempt, number: 1, runToken: randomUUID(), endedAt: startedAt, outcome: "failed", reason: "rate_limited", errorClass: "transient", httpStatus: 429, ...noUsage, costMicros: 0, latencyMs: 300 });
        }
        attempts.push({
          ...attempt,
          number: retried ? 2 : 1,
          runToken: randomUUID(),
          endedAt: finishedAt,
          outcome: "succeeded",
          reason: null,
          errorClass: null,
          httpStatus: null,
          ...answer.usage,
          costMicros: cost,
          latencyMs: finishedAt.getTime() - startedAt.getTime(),
        });
        captures.push({
          id: captureId,
          workspaceId,
          checkId,
          brandId: brand.id,
          promptId: prompt.id,
          providerConfigId: provider.id,
          sample: 1,
          status: "succeeded",
          attemptCount: retried ? 2 : 1,
          maxAttempts: provider.maxAttempts,
          model: provider.model,
          searchMode: provider.searchMode,
          answerText: answer.text,
          costMicros: cost,
          latencyMs: finishedAt.getTime() - startedAt.getTime(),
          startedAt,
          finishedAt,
          analyzedAt: finishedAt,
          createdAt: startedAt,
          updatedAt: finishedAt,
        });
        charged += cost;
        const analysis = analyzeAnswer({ answer: answer.text, brand, competitors: brand.competitors, sources: answer.sources });
        for (const row of mentionRows(analysis, brand.id, brand.competitors.map((c) => c.id))) mentions.push({ ...row, workspaceId, captureId });
        analysis.citations.forEach((c, i) => citations.push({ ...c, workspaceId, captureId, position: i + 1 }));
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
      succeededCount: total,
      chargedMicros: charged,
      createdAt: startedAt,
      updatedAt: startedAt,
      finishedAt: new Date(startedAt.getTime() + 130_000),
    });
  }
  await db().$transaction(
    async (tx) => {
      await bulkInsert(tx, "checks", checks);
      await bulkInsert(tx, "captures", captures);
      await bulkInsert(tx, "attempts", attempts);
      await bulkInsert(tx, "mentions", mentions);
      await bulkInsert(tx, "citations", citations);
      await bulkInsert(tx, "search_queries", queries);
    },
    { timeout: 120_000 },
  );
  return { checks: checks.length, captures: captures.length };
}
