import "server-only";
import { db } from "@/lib/db/prisma";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isConfigured } from "@/lib/providers/registry";
import { testCall } from "@/lib/providers/test-call";
import type { providerConfigInputSchema } from "@/lib/providers/schemas";
import type { z } from "zod";

type Input = z.output<typeof providerConfigInputSchema>;

/** The workspace's provider configurations, with whether this server can reach each adapter. */
export async function listProviderConfigs(workspaceId: string) {
  const configs = await db().providerConfig.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return configs.map((c) => ({ ...c, configured: isConfigured(c.adapter) }));
}

function toData({ simulator, ...input }: Input) {
  return { ...input, settings: simulator ?? {} };
}

function rethrowNameTaken(error: unknown, name: string): never {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    throw new ConflictError(`A provider named "${name}" already exists.`, { field: "name" });
  }
  throw error;
}

export async function createProviderConfig(workspaceId: string, input: Input) {
  try {
    return await db().providerConfig.create({ data: { workspaceId, ...toData(input) }, select: { id: true } });
  } catch (error) {
    rethrowNameTaken(error, input.name);
  }
}

/** Changes apply to captures that start afterwards; running ones keep the model they started with. */
export async function updateProviderConfig(workspaceId: string, providerConfigId: string, input: Input) {
  try {
    const { count } = await db().providerConfig.updateMany({ where: { id: providerConfigId, workspaceId }, data: toData(input) });
    if (!count) throw new NotFoundError("That provider does not exist in this workspace.");
  } catch (error) {
    rethrowNameTaken(error, input.name);
  }
}

/** "Test connection": one call with this configuration, outside any check. */
export async function testProviderConfig(workspaceId: string, providerConfigId: string, prompt: string) {
  const config = await db().providerConfig.findFirst({ where: { id: providerConfigId, workspaceId } });
  if (!config) throw new NotFoundError("That provider does not exist in this workspace.");
  return testCall({
    adapter: config.adapter,
    model: config.model,
    searchMode: config.searchMode,
    prompt,
    price: config,
    timeoutMs: config.timeoutMs,
    limits: { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls },
    settings: (config.settings ?? {}) as Record<string, unknown>,
  });
}
