import { apiRoute, json, idParam, readQuery } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { checkCapturesQuery } from "@/lib/api/schemas";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { getCheckSummary, listCheckCaptures } from "@/lib/checks/queries";

export const dynamic = "force-dynamic";

/** A check: status, counts per status, cost, and a page of its captures (`?page=&pageSize=`). */
export const GET = apiRoute<{ id: string }>(async ({ caller, request }, params) => {
  assertCan(canView(caller));
  const { id } = parseOrThrow(idParam, params);
  const query = readQuery(request, checkCapturesQuery);
  const check = await getCheckSummary(caller.workspaceId, id);
  const captures = await listCheckCaptures(caller.workspaceId, id, query);
  return json({ check, captures, capturesPage: { page: query.page, pageSize: query.pageSize, total: check.counts.total } });
});
