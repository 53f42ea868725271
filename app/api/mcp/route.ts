import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateApiKey } from "@/lib/api-keys/api-keys";
import { apiError } from "@/lib/api/handler";
import { createMcpServer } from "@/lib/mcp/server";

export const dynamic = "force-dynamic";

/**
 * The MCP server over streamable HTTP, stateless: every request brings its API key
 * (`Authorization: Bearer <key>`) and gets a server of its own for that key's workspace and
 * scope, answered as JSON. No session lives in this process, so any web replica can answer.
 */
async function handle(request: Request): Promise<Response> {
  const key = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!key) return apiError(401, "unauthorized", "Send an API key as `Authorization: Bearer <key>`. Create one in Settings.");
  const caller = await authenticateApiKey(key);
  if (!caller) return apiError(401, "unauthorized", "This API key is not valid, was revoked, or belongs to someone who left the workspace.");
  // A request is one message (or one batch): the key just checked holds for it.
  const server = await createMcpServer(async () => caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
