import { apiRoute, json, idParam } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { cancelCheck } from "@/lib/checks/cancel-retry";

export const dynamic = "force-dynamic";

/** Cancel a check: waiting captures at once, running ones within a second (their partial answers are kept). */
export const POST = apiRoute<{ id: string }>(async ({ caller }, params) => {
  const { id } = parseOrThrow(idParam, params);
  return json(await cancelCheck(caller, id), { status: 202 });
});
