import "server-only";
import { databaseNow } from "@/lib/db/clock";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

/** An open breaker is flagged when it has been open this long (DESIGN.md: "open for more than 5 minutes"). */
export const OPEN_TOO_LONG_SECONDS = 5 * 60;

/**
 * Breakers as the admin pages show them, one per connection and model: the ones a workspace's
 * providers use (its Jobs page), or every one (operators).
 */
export async function listBreakers(scope: { workspaceId: string } | "instance") {
  const pairs: { connectionId: string; model: string }[] =
    scope === "instance"
      ? (await db().providerConnection.findMany({ select: { id: true, models: true } })).flatMap((c) => c.models.map((model) => ({ connectionId: c.id, model })))
      : await db().providerConfig.findMany({ where: { workspaceId: scope.workspaceId }, select: { connectionId: true, model: true }, distinct: ["connectionId", "model"] });
  if (!pairs.length) return [];
  const where: Prisma.ProviderConnectionWhereInput = { id: { in: [...new Set(pairs.map((p) => p.connectionId))] } };
  const connections = await db().providerConnection.findMany({ where, include: { breakers: true } });
  // Open time by the database's clock, which opened it (the budget's alert reads it so too).
  const now = (await databaseNow()).getTime();
  return pairs
    .flatMap(({ connectionId, model }) => {
      const c = connections.find((x) => x.id === connectionId);
      if (!c) return [];
      const b = c.breakers.find((x) => x.model === model);
      const status = b?.forcedStatus ?? b?.status ?? "closed";
      const openSeconds = status !== "closed" && b?.openedAt ? Math.round((now - b.openedAt.getTime()) / 1000) : 0;
      const window = b?.recentFailures ?? [];
      return [
        {
          connectionId,
          model,
          connection: c.name,
          status,
          forced: b?.forcedStatus ?? null,
          openedAt: b?.openedAt ?? null,
          openUntil: b?.openUntil ?? null,
          openSeconds,
          openTooLong: openSeconds > OPEN_TOO_LONG_SECONDS,
          window: { calls: window.length, failures: window.filter(Boolean).length, size: c.breakerWindowSize, minCalls: c.breakerMinCalls, thresholdPct: c.breakerFailureRatePct },
          successCount: Number(b?.successCount ?? 0),
          failureCount: Number(b?.failureCount ?? 0),
          slowCallCount: Number(b?.slowCallCount ?? 0),
          shortCircuitCount: Number(b?.shortCircuitCount ?? 0),
        },
      ];
    })
    .sort((a, b) => a.connection.localeCompare(b.connection) || a.model.localeCompare(b.model));
}

export type BreakerView = Awaited<ReturnType<typeof listBreakers>>[number];
