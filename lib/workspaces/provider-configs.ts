import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { priceTableOf } from "@/lib/billing/money";
import { assertUsable } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { defaultProviderName, defaultSearchMode } from "@/lib/providers/defaults";
import { isConfigured } from "@/lib/providers/registry";
import type { providerConfigInputSchema } from "@/lib/providers/schemas";
import type { z } from "zod";
import { isUniqueViolation } from "@/lib/db/sqlstate";

type Tx = Prisma.TransactionClient;
type Input = z.output<typeof providerConfigInputSchema>;

// A workspace's providers: its named uses of the connections granted to it (a model from the
// connection's allowlist and a search mode). Prices, caps, limits and credentials are the
// connection's, managed by operators (lib/connections/connections.ts).

/** The workspace's providers, with their connection and whether they can run now. */
export async function listProviderConfigs(workspaceId: string) {
  const rows = await db().providerConfig.findMany({ where: { workspaceId }, orderBy: { name: "asc" }, include: { connection: true } });
  // Who may call a connection is beacon_access_refusal's to say, as for a claim, a retry and new work.
  const access = await db().$queryRaw<{ id: string; refusal: string | null }[]>`
    SELECT p.id, beacon_access_refusal(p."connectionId", p."workspaceId", p.model) AS refusal
    FROM unnest(${rows.map((r) => r.id)}::uuid[]) AS ids(id) JOIN provider_configs p ON p.id = ids.id`;
  const refusals = new Map(access.map((a) => [a.id, a.refusal]));
  const refusalOf = (id: string) => refusals.get(id) ?? null;
  return rows.map(({ connection: c, ...p }) => ({
    ...p,
    connection: { id: c.id, name: c.name, adapter: c.adapter, models: c.models, maxConcurrency: c.maxConcurrency },
    adapter: c.adapter,
    configured: isConfigured(c.adapter, c.settings),
    /** The workspace may call the connection with this model now: enabled, granted (to it or to all), the model allowed. */
    granted: refusalOf(p.id) === null,
    /** Why not, when it may not (the claim's words). */
    accessRefusal: refusalOf(p.id),
    prices: priceTableOf(c),
  }));
}

/**
 * The providers as scripts and assistants see them (REST `GET /api/v1/providers`, MCP
 * `list_providers`): the id analytics' `providers` filter takes, what a check names, and whether a
 * check may use each now (enabled, granted: beacon_access_refusal, configured on this server).
 */
export async function providersForCallers(workspaceId: string) {
  return (await listProviderConfigs(workspaceId)).map((p) => ({
    id: p.id,
    name: p.name,
    connection: p.connection.name,
    adapter: p.adapter,
    model: p.model,
    searchMode: p.searchMode,
    enabled: p.enabled,
    granted: p.granted,
    configured: p.configured,
    usable: p.enabled && p.granted && p.configured,
  }));
}

function rethrowNameTaken(error: unknown, name: string): never {
  if (isUniqueViolation(error)) {
    throw new ConflictError(`A provider named "${name}" already exists.`, { field: "name" });
  }
  throw error;
}

export async function createProviderConfig(workspaceId: string, input: Input) {
  return transaction(async (tx) => {
    await assertUsable(tx, workspaceId, input.connectionId, input.model);
    return tx.providerConfig.create({ data: { workspaceId, ...input }, select: { id: true } });
  }).catch((error: unknown) => rethrowNameTaken(error, input.name));
}

/**
 * Changes apply to captures that start afterwards; running ones keep the model they started with.
 * `version`: the row's updatedAt as the form (or the list's Enable button) read it: a save from
 * before another admin's change, or an operator's revoke, is refused (refuseStaleEdit) rather than
 * switching a disabled provider back on.
 */
export async function updateProviderConfig(workspaceId: string, providerConfigId: string, input: Input, { version }: { version?: Date } = {}) {
  await transaction(async (tx) => {
    const [existing] = await tx.$queryRaw<{ name: string; updatedAt: Date }[]>`
      SELECT name, "updatedAt" FROM provider_configs WHERE id = ${providerConfigId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!existing) throw new NotFoundError("That provider does not exist in this workspace.");
    refuseStaleEdit(existing.name, existing.updatedAt, version);
    await assertUsable(tx, workspaceId, input.connectionId, input.model);
    await tx.providerConfig.update({ where: { id: providerConfigId }, data: input });
  }).catch((error: unknown) => rethrowNameTaken(error, input.name));
}

/**
 * A new workspace's providers: one on each connection every workspace may use (the simulators),
 * with its default name, first model and search mode.
 */
export async function createDefaultProviders(tx: Tx, workspaceId: string): Promise<void> {
  const connections = await tx.providerConnection.findMany({ where: { enabled: true, grantedToAll: true }, orderBy: { name: "asc" } });
  if (!connections.length) return;
  await tx.providerConfig.createMany({
    data: connections
      .filter((c) => c.models.length)
      .map((c) => ({ workspaceId, name: defaultProviderName(c), connectionId: c.id, model: c.models[0]!, searchMode: defaultSearchMode(c) })),
    skipDuplicates: true,
  });
}
