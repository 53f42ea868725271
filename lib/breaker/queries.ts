import "server-only";
import { db } from "@/lib/db/prisma";

/** An open breaker is flagged when it has been open this long (DESIGN.md: "open for more than 5 minutes"). */
export const OPEN_TOO_LONG_SECONDS = 5 * 60;

/** Each provider's breaker as the admin page shows it. */
export async function listBreakers(workspaceId: string) {
  const configs = await db().providerConfig.findMany({
    where: { workspaceId },
    select: { id: true, name: true, breakerWindowSize: true, breakerMinCalls: true, breakerFailureRatePct: true, breakerOpenSeconds: true, breaker: true },
    orderBy: { name: "asc" },
  });
  const now = Date.now();
  return configs.map((c) => {
    const b = c.breaker;
    const status = b?.forcedStatus ?? b?.status ?? "closed";
    const openSeconds = status !== "closed" && b?.openedAt ? Math.round((now - b.openedAt.getTime()) / 1000) : 0;
    const window = b?.recentFailures ?? [];
    return {
      providerConfigId: c.id,
      provider: c.name,
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
    };
  });
}

export type BreakerView = Awaited<ReturnType<typeof listBreakers>>[number];
