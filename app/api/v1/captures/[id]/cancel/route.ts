import { apiRoute, json, idParam } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { cancelCapture } from "@/lib/checks/cancel-retry";

export const dynamic = "force-dynamic";

/** Cancel one capture. */
export const POST = apiRoute<{ id: string }>(async ({ caller }, params) => {
  const { id } = parseOrThrow(idParam, params);
  return json(await cancelCapture(caller, id), { status: 202 });
});
