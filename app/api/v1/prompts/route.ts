import { apiRoute, json, readQuery } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { listPrompts } from "@/lib/prompts/prompts";
import { promptListQuerySchema } from "@/lib/prompts/schemas";

export const dynamic = "force-dynamic";

/** Prompts, newest first: `?q=&tag=&page=&pageSize=`. */
export const GET = apiRoute(async ({ caller, request }) => {
  assertCan(canView(caller));
  const query = readQuery(request, promptListQuerySchema);
  return json(await listPrompts(caller.workspaceId, query));
});
