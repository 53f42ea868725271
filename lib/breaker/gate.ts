import "server-only";
import { db } from "@/lib/db/prisma";

export type Gate = { open: false } | { open: true; retryAt: Date };

/**
 * Asked before every attempt: while a provider's breaker is open its captures are postponed
 * (no call, no attempt spent) until it may half-open. Reads the breaker state shared by all
 * worker processes; an admin can hold a breaker open.
 */
export async function breakerGate(providerConfigId: string, openSeconds: number, now = new Date()): Promise<Gate> {
  const state = await db().breakerState.findUnique({
    where: { providerConfigId },
    select: { status: true, openUntil: true, forcedStatus: true },
  });
  if (!state || state.forcedStatus === "closed") return { open: false };
  if (state.forcedStatus === "open") return { open: true, retryAt: new Date(now.getTime() + openSeconds * 1000) };
  if (state.status === "open" && state.openUntil && state.openUntil > now) return { open: true, retryAt: state.openUntil };
  return { open: false };
}
