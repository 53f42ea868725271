import { apiRoute, json, readJson, readQuery } from "@/lib/api/handler";
import { ApiProblem } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation/parse";
import { checksListQuery, createCheckBody } from "@/lib/api/schemas";
import { startCheckForKey } from "@/lib/api/start-check";
import { assertCan, canStartCheck, canView } from "@/lib/permissions/permissions";
import { listChecks } from "@/lib/checks/queries";
import { idempotencyKeySchema } from "@/lib/checks/schemas";

export const dynamic = "force-dynamic";

/** Start a check: 202 with the check. Requires an Idempotency-Key header; the same key and body return the same check. */
export const POST = apiRoute(async ({ caller, request }) => {
  assertCan(canStartCheck(caller), "This key cannot start checks.");
  const rawKey = request.headers.get("idempotency-key");
  if (!rawKey) throw new ApiProblem(400, "idempotency_key_required", "Send an Idempotency-Key header (e.g. a UUID) so a retried request cannot start a second check.");
  // The key is checked before the body is read, so a bad key is refused whatever the body.
  parseOrThrow(idempotencyKeySchema, rawKey);
  const body = await readJson(request, createCheckBody);
  const { check, replayed } = await startCheckForKey(caller, rawKey, body);
  return json({ check }, { status: 202, headers: { location: `/api/v1/checks/${check.id}`, ...(replayed ? { "idempotent-replayed": "true" } : {}) } });
});

/** List checks, newest first: `?status=&page=&pageSize=`. */
export const GET = apiRoute(async ({ caller, request }) => {
  assertCan(canView(caller));
  const query = readQuery(request, checksListQuery);
  return json(await listChecks(caller.workspaceId, query));
});
