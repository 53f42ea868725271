import { apiRoute, ApiProblem, json, parseOrThrow, readJson, readQuery } from "@/lib/api/handler";
import { checksListQuery, createCheckBody } from "@/lib/api/schemas";
import { assertCan, canEditTrackingSetup, canStartCheck, canView } from "@/lib/auth/permissions";
import { createCheck, hashRequest } from "@/lib/checks/create-check";
import { getCheckSummary, listChecks } from "@/lib/checks/queries";
import { idempotencyKeySchema } from "@/lib/checks/schemas";

export const dynamic = "force-dynamic";

/** Start a check: 202 with the check. Requires an Idempotency-Key header; the same key and body return the same check. */
export const POST = apiRoute(async ({ caller, request }) => {
  assertCan(canStartCheck(caller), "This key cannot start checks.");
  const rawKey = request.headers.get("idempotency-key");
  if (!rawKey) throw new ApiProblem(400, "idempotency_key_required", "Send an Idempotency-Key header (e.g. a UUID) so a retried request cannot start a second check.");
  const idempotencyKey = parseOrThrow(idempotencyKeySchema, rawKey);
  const body = await readJson(request, createCheckBody);
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
  const check = await getCheckSummary(caller.workspaceId, checkId);
  return json({ check }, { status: 202, headers: { location: `/api/v1/checks/${checkId}`, ...(replayed ? { "idempotent-replayed": "true" } : {}) } });
});

/** List checks, newest first: `?status=&page=&pageSize=`. */
export const GET = apiRoute(async ({ caller, request }) => {
  assertCan(canView(caller));
  const query = readQuery(request, checksListQuery);
  return json(await listChecks(caller.workspaceId, query));
});
