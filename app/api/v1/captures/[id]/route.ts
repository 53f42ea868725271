import { apiRoute, json, idParam } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { getCaptureDetail } from "@/lib/checks/queries";

export const dynamic = "force-dynamic";

/** A capture: the answer (partial while running), attempts, sources, search queries and results. */
export const GET = apiRoute<{ id: string }>(async ({ caller }, params) => {
  assertCan(canView(caller));
  const { id } = parseOrThrow(idParam, params);
  return json({ capture: await getCaptureDetail(caller.workspaceId, id) });
});
