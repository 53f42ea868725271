import "server-only";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, isoDay } from "@/lib/analytics/schemas";
import { databaseNow } from "@/lib/db/clock";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError, UserError } from "@/lib/errors";
import type { z } from "zod";
import type { createShareLinkInput } from "@/lib/share-links/schemas";
import { hashShareToken, newShareToken } from "@/lib/share-links/tokens";

export type ShareLinkStatus = "active" | "expired" | "revoked";

/**
 * A new link to one brand's Overview. The brand and providers must belong to the workspace (a
 * foreign id is "not found" and nothing is written); the period is checked as the dashboards'
 * filter is. The token is returned once; only its hash is kept. Does not authorize: the action
 * checks canManageShareLinks first.
 */
export async function createShareLink(workspaceId: string, createdById: string, input: z.output<typeof createShareLinkInput>) {
  const period = input.period;
  // The same checks as the dashboards' filter: dates, range length, brand and providers of this workspace.
  const checked = analyticsFilterInput.safeParse({
    brandId: input.brandId,
    providers: input.providers,
    tags: input.tags,
    markets: input.markets,
    ...(period.kind === "fixed" ? { from: period.from, to: period.to } : {}),
  });
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = issue.path[0] === "from" || issue.path[0] === "to" ? "period" : String(issue.path[0] ?? "");
    throw new UserError(issue.message, { field: field || undefined });
  }
  const parsed = checked.data;
  await resolveFilter(workspaceId, parsed);
  const token = newShareToken();
  const row = await transaction(async (tx) => {
    // The database clock decides expiry, here and when the link is opened.
    const now = (await tx.$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
    return tx.shareLink.create({
      data: {
        workspaceId,
        brandId: input.brandId,
        label: input.label,
        tokenHash: hashShareToken(token),
        providerConfigIds: parsed.providers,
        tags: parsed.tags,
        markets: parsed.markets,
        rangeDays: period.kind === "rolling" ? period.days : null,
        fromDay: period.kind === "fixed" ? new Date(`${period.from}T00:00:00Z`) : null,
        toDay: period.kind === "fixed" ? new Date(`${period.to}T00:00:00Z`) : null,
        expiresAt: new Date(now.getTime() + input.expiresInDays * 86_400_000),
        createdById,
      },
      select: { id: true, expiresAt: true },
    });
  });
  return { ...row, token, path: `/share/${token}` };
}

/** The workspace's links, newest first, with their status (by the database clock), brand and creator. */
export async function listShareLinks(workspaceId: string) {
  const [links, now] = await Promise.all([
    db().shareLink.findMany({
      where: { workspaceId },
      select: {
        id: true, label: true, rangeDays: true, fromDay: true, toDay: true, expiresAt: true, revokedAt: true,
        createdById: true, createdAt: true, lastViewedAt: true, viewCount: true, brand: { select: { id: true, name: true } },
      },
      orderBy: { createdAt: "desc" },
      take: 200,
    }),
    databaseNow(),
  ]);
  const creators = await db().user.findMany({ where: { id: { in: links.flatMap((l) => (l.createdById ? [l.createdById] : [])) } }, select: { id: true, name: true } });
  const names = new Map(creators.map((u) => [u.id, u.name]));
  return links.map(({ fromDay, toDay, createdById, ...l }) => ({
    ...l,
    period: l.rangeDays ? `Last ${l.rangeDays} days` : `${isoDay(fromDay!)} – ${isoDay(toDay!)}`,
    createdBy: createdById ? (names.get(createdById) ?? "a deleted account") : null,
    status: (l.revokedAt ? "revoked" : l.expiresAt <= now ? "expired" : "active") as ShareLinkStatus,
  }));
}

/** Revokes a link of the workspace at once; revoking it again is "not found". */
export async function revokeShareLink(workspaceId: string, shareLinkId: string) {
  const count = await db().$executeRaw`
    UPDATE share_links SET "revokedAt" = now() WHERE id = ${shareLinkId}::uuid AND "workspaceId" = ${workspaceId}::uuid AND "revokedAt" IS NULL`;
  if (!count) throw new NotFoundError("That share link does not exist in this workspace or is already revoked.");
}
