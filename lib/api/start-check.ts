import "server-only";
import { parseOrThrow } from "@/lib/validation/parse";
import type { CreateCheckBody } from "@/lib/api/schemas";
import { assertCan, canEditTrackingSetup, canStartCheck } from "@/lib/permissions/permissions";
import type { Caller } from "@/lib/checks/cancel-retry";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { getCheckSummary } from "@/lib/checks/queries";
import { idempotencyKeySchema } from "@/lib/checks/schemas";

/**
 * A check started by an API key (POST /api/v1/checks and the MCP tool start_check): authorizes
 * the caller (canStartCheck, and canEditTrackingSetup for prompts given as text), then creates
 * the check under the idempotency key: the same key and body give the same check.
 */
export async function startCheckForKey(caller: Caller & { apiKeyId: string }, rawKey: string, body: CreateCheckBody) {
  assertCan(canStartCheck(caller), "This key cannot start checks.");
  const idempotencyKey = parseOrThrow(idempotencyKeySchema, rawKey);
  const ids = (body.prompts ?? []).filter((p): p is string => typeof p === "string");
  const texts = (body.prompts ?? []).flatMap((p) => (typeof p === "string" ? [] : [p.text]));
  if (texts.length) assertCan(canEditTrackingSetup(caller), "This key cannot add prompts.");
  const { checkId, replayed } = await createCheck({
    workspaceId: caller.workspaceId,
    idempotencyKey,
    requestHash: hashRequest(body),
    brandId: body.brandId,
    prompts: body.prompts ? { mode: "api", promptIds: ids, texts } : body.tag ? { mode: "tag", tag: body.tag } : { mode: "all" },
    providers: { names: body.providers },
    samples: body.samples,
    // Started by the key's member, through their key: they (and their key) may cancel it.
    startedById: caller.userId,
    apiKeyId: caller.apiKeyId,
  });
  return { check: await getCheckSummary(caller.workspaceId, checkId), replayed };
}
