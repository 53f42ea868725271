import { apiRoute, json, idParam } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { requestCheckCancel } from "@/lib/checks/operations";

export const dynamic = "force-dynamic";

/**
 * Cancel a check, as the check page does: the check stops starting captures at once, and a worker
 * cancels the waiting ones and stops the running ones (their partial answers kept) in order after
 * any operation asked before (a retry); `GET /checks/:id` shows the operation's progress.
 */
export const POST = apiRoute<{ id: string }>(async ({ caller }, params) => {
  const { id } = parseOrThrow(idParam, params);
  return json(await requestCheckCancel(caller, id), { status: 202 });
});
