import { apiRoute, json, idParam } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { retryCaptures } from "@/lib/checks/cancel-retry";

export const dynamic = "force-dynamic";

/** Run a failed or cancelled capture again. */
export const POST = apiRoute<{ id: string }>(async ({ caller }, params) => {
  const { id } = parseOrThrow(idParam, params);
  return json(await retryCaptures(caller, { captureId: id }), { status: 202 });
});
