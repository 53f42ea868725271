import "server-only";
import { priceTableOf } from "@/lib/billing/money";
import { lockConnectionAccess, wakeRefusedCaptures } from "@/lib/lifecycle/claim";
import { pausePoint } from "@/lib/db/pause-points";
import { wakeBudgetWaiters } from "@/lib/lifecycle/transition";
import { db } from "@/lib/db/prisma";
import { inTransaction, transaction } from "@/lib/db/transaction";
import { ConflictError, NotFoundError, UserError } from "@/lib/errors";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { Prisma } from "@/lib/generated/prisma/client";
import { defaultProviderName, defaultSearchMode } from "@/lib/providers/defaults";
import type { grantInputSchema } from "@/lib/providers/schemas";
import { isConfigured, notConfiguredReason, type connectionInputSchema } from "@/lib/providers/registry";
import { testCall } from "@/lib/connections/test-call";
import type { z } from "zod";
import { isUniqueViolation } from "@/lib/db/sqlstate";

type Tx = Prisma.TransactionClient;

// Provider connections are the instance's (DESIGN.md "Provider connection"): operators manage
// them and grant them to workspaces. The functions marked "operators" do not authorize: their
// callers (lib/actions/instance.ts) check `canManageInstance` first.

/**
 * The connections a workspace may use: those beacon_access_refusal lets it call with some model
 * (enabled, granted to it or to every workspace; a connection has at least one model, and the
 * allowlist is per model, so its first stands for all).
 */
export async function grantedConnections(workspaceId: string) {
  const usable = await db().$queryRaw<{ id: string }[]>`
    SELECT pc.id FROM provider_connections pc WHERE beacon_access_refusal(pc.id, ${workspaceId}::uuid, pc.models[1]) IS NULL`;
  const rows = await db().providerConnection.findMany({
    where: { id: { in: usable.map((c) => c.id) } },
    orderBy: { name: "asc" },
    include: { grants: { where: { workspaceId }, select: { monthlySpendLimitMicros: true } } },
  });
  return rows.map(({ grants, ...c }) => ({
    id: c.id,
    name: c.name,
    adapter: c.adapter,
    models: c.models,
    configured: isConfigured(c.adapter, c.settings),
    monthlySpendLimitMicros: grants[0]?.monthlySpendLimitMicros == null ? null : Number(grants[0].monthlySpendLimitMicros),
    prices: priceTableOf(c),
    // What the provider form starts a new provider on it with.
    defaultProviderName: defaultProviderName(c),
    defaultSearchMode: defaultSearchMode(c),
  }));
}

/**
 * Refuses a connection the workspace may not use, or a model it does not allow. Used wherever a
 * workspace points a provider at a connection, and when a check starts. The rule is
 * beacon_access_refusal's, the one the claim and the retry apply (enabled, granted, the model
 * allowed); its sentences are a capture's, so new work is told in its own words: the model, when
 * the connection would take one of its others.
 */
export async function assertUsable(tx: Tx, workspaceId: string, connectionId: string, model: string) {
  const [access] = await tx.$queryRaw<{ refusal: string | null; otherModelAllowed: boolean }[]>`
    SELECT beacon_access_refusal(${connectionId}::uuid, ${workspaceId}::uuid, ${model}) AS refusal,
           coalesce((SELECT beacon_access_refusal(pc.id, ${workspaceId}::uuid, pc.models[1]) IS NULL FROM provider_connections pc WHERE pc.id = ${connectionId}::uuid), false) AS "otherModelAllowed"`;
  const connection = await tx.providerConnection.findUnique({ where: { id: connectionId } });
  if (!access?.refusal && connection) return connection;
  if (!connection || !access?.otherModelAllowed) throw new NotFoundError("That connection is not available to this workspace. Ask an operator to grant it.", { field: "connectionId" });
  throw new UserError(`${connection.name} does not offer the model "${model}". Pick one of: ${connection.models.join(", ")}.`, { field: "model" });
}

// ---------------------------------------------------------------------------------------------
// Operators

type ConnectionInput = z.output<typeof connectionInputSchema>;

/** The adapter's own settings go to the settings column (never a key: keys stay in the environment). */
const toData = ({ simulator, openaiCompatible, ...input }: ConnectionInput) => ({
  ...input,
  settings: (input.adapter === "openai_compatible" ? (openaiCompatible ?? {}) : (simulator ?? {})) as Prisma.InputJsonValue,
});

function rethrowNameTaken(error: unknown, name: string): never {
  if (isUniqueViolation(error)) {
    throw new ConflictError(`A connection named "${name}" already exists.`, { field: "name" });
  }
  throw error;
}

/** Operators: every connection, with whether this server has its credentials and who may use it. */
export async function listConnections() {
  const rows = await db().providerConnection.findMany({
    orderBy: { name: "asc" },
    include: { grants: { include: { workspace: { select: { name: true, slug: true } } }, orderBy: { createdAt: "asc" } } },
  });
  return rows.map(({ grants, ...c }) => ({
    ...c,
    configured: isConfigured(c.adapter, c.settings),
    /** Shown beside "not configured": what this server lacks (which variable to set). */
    notConfiguredReason: notConfiguredReason(c.adapter, c.settings) ?? null,
    grants: grants.map((g) => ({
      workspaceId: g.workspaceId,
      workspace: g.workspace.name,
      slug: g.workspace.slug,
      monthlySpendLimitMicros: g.monthlySpendLimitMicros === null ? null : Number(g.monthlySpendLimitMicros),
    })),
  }));
}

/** Operators. */
export async function createConnection(input: ConnectionInput) {
  try {
    return await db().providerConnection.create({ data: toData(input), select: { id: true } });
  } catch (error) {
    rethrowNameTaken(error, input.name);
  }
}

/**
 * Operators. Applies to calls that start afterwards (a claim that commits after this edit
 * finds the connection's version changed and its worker reads the settings again: `stale`,
 * lib/lifecycle/claim.ts); models taken off the allowlist disable the
 * providers that use them. A disable, a narrowed allowlist or "granted to all" turned off is a
 * kill switch: every capture waiting on the connection that may no longer run fails at its claim
 * with the reason, nothing is called (lib/lifecycle/claim.ts).
 *
 * `version`: the row's updatedAt as the form read it. An edit saved since (another operator's
 * disable, say) refuses this one (refuseStaleEdit): the form holds every field, so saving it
 * would switch a kill switch back off.
 */
export async function updateConnection(connectionId: string, input: ConnectionInput, { version }: { version?: Date } = {}) {
  await transaction(async (tx) => {
    // Operators' changes of the connection wait for each other here.
    await lockConnectionAccess(tx, connectionId);
    const current = await tx.providerConnection.findUnique({ where: { id: connectionId }, select: { name: true, updatedAt: true } });
    if (!current) throw new NotFoundError("That connection does not exist.");
    refuseStaleEdit(current.name, current.updatedAt, version);
    await tx.providerConnection.update({ where: { id: connectionId }, data: toData(input) });
    await tx.providerConfig.updateMany({ where: { connectionId, model: { notIn: input.models } }, data: { enabled: false } });
    await wakeRefusedCaptures(tx, connectionId);
    await pausePoint("access:before-commit", { tx });
  }).catch((error: unknown) => rethrowNameTaken(error, input.name));
}

/** Operators: grants a connection to a workspace (or changes its limit). */
export async function grantConnection(input: z.output<typeof grantInputSchema>, grantedById: string | null) {
  const [connection, workspace] = await Promise.all([
    db().providerConnection.findUnique({ where: { id: input.connectionId }, select: { id: true } }),
    db().workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } }),
  ]);
  if (!connection) throw new NotFoundError("That connection does not exist.", { field: "connectionId" });
  if (!workspace) throw new NotFoundError("That workspace does not exist.", { field: "workspaceId" });
  const limit = input.monthlySpendLimitMicros === null ? null : BigInt(input.monthlySpendLimitMicros);
  await inTransaction(async (tx) => {
    // Ordered against claims like every change of who may spend on the connection and how much.
    await lockConnectionAccess(tx, input.connectionId);
    if (input.expected !== undefined) {
      // The dialog's grant as it read it: another operator's grant, revoke or limit since is not written over.
      const now = await tx.connectionGrant.findUnique({ where: { connectionId_workspaceId: { connectionId: input.connectionId, workspaceId: input.workspaceId } } });
      const stale = "Nothing was saved: close the dialog and open it again to see the grant as it is now.";
      if (input.expected === null && now) throw new ConflictError(`This workspace was granted the connection meanwhile (by another operator). ${stale}`);
      if (input.expected !== null && !now) throw new ConflictError(`This grant was revoked meanwhile (by another operator): saving a limit would grant it again. ${stale}`);
      const readLimit = input.expected?.monthlySpendLimitMicros ?? null;
      if (now && (now.monthlySpendLimitMicros === null ? null : Number(now.monthlySpendLimitMicros)) !== readLimit) {
        throw new ConflictError(`This grant's limit was changed meanwhile (by another operator). ${stale}`);
      }
    }
    await tx.connectionGrant.upsert({
      where: { connectionId_workspaceId: { connectionId: input.connectionId, workspaceId: input.workspaceId } },
      create: { connectionId: input.connectionId, workspaceId: input.workspaceId, monthlySpendLimitMicros: limit, grantedById },
      update: { monthlySpendLimitMicros: limit },
    });
    // A raised limit lets captures that wait for money run now.
    await wakeBudgetWaiters(tx, input.workspaceId, 10_000);
  });
}

/**
 * Operators: takes a grant back (a kill switch). The workspace's providers on it are disabled (new
 * checks cannot use them), and its captures waiting on the connection fail at their claim with
 * the reason, nothing called (lib/lifecycle/claim.ts); a retry is refused. Calls already
 * running finish.
 */
export async function revokeConnection(connectionId: string, workspaceId: string) {
  await transaction(async (tx) => {
    await lockConnectionAccess(tx, connectionId);
    await tx.connectionGrant.deleteMany({ where: { connectionId, workspaceId } });
    const connection = await tx.providerConnection.findUnique({ where: { id: connectionId }, select: { grantedToAll: true } });
    if (!connection?.grantedToAll) await tx.providerConfig.updateMany({ where: { connectionId, workspaceId }, data: { enabled: false } });
    await wakeRefusedCaptures(tx, connectionId);
    await pausePoint("access:before-commit", { tx });
  });
}

/** Operators: every workspace, for the grant picker. */
export async function listWorkspacesForGrants() {
  return db().workspace.findMany({ select: { id: true, name: true, slug: true }, orderBy: { name: "asc" } });
}

/** Operators: "Test connection", one call with the connection's settings, outside any check and budget. */
export async function testConnection(connectionId: string, model: string, prompt: string) {
  const c = await db().providerConnection.findUnique({ where: { id: connectionId } });
  if (!c) throw new NotFoundError("That connection does not exist.");
  if (!c.models.includes(model)) throw new UserError(`Pick one of the connection's models: ${c.models.join(", ")}.`, { field: "model" });
  return testCall({
    adapter: c.adapter,
    model,
    searchMode: "auto",
    prompt,
    price: c,
    timeoutMs: c.timeoutMs,
    limits: { maxOutputTokens: c.maxOutputTokens, maxSearchCalls: c.maxSearchCalls },
    settings: (c.settings ?? {}) as Record<string, unknown>,
  });
}
