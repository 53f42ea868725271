import { apiRoute, json, parseOrThrow } from "@/lib/api/handler";
import { listPrompts } from "@/lib/prompts/prompts";
import { promptListQuerySchema } from "@/lib/prompts/schemas";

export const dynamic = "force-dynamic";

/** Prompts, newest first: `?q=&tag=&page=&pageSize=`. */
export const GET = apiRoute(async ({ caller, request }) => {
  const query = parseOrThrow(promptListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return json(await listPrompts(caller.workspaceId, query));
});
