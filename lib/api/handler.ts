import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { authenticateApiKey, type ApiKeyCaller } from "@/lib/api-keys/api-keys";
import type { Caller } from "@/lib/checks/cancel-retry";
import { ApiProblem, ForbiddenError, UserError } from "@/lib/errors";
import { deletedMeanwhile } from "@/lib/db/sqlstate";
import { parseOrThrow } from "@/lib/validation/parse";
import { hasControlCharacters } from "@/lib/validation/text";

/** Largest JSON body the API reads. */
const MAX_BODY_BYTES = 1_000_000;

export type ApiContext = { caller: Caller & { apiKeyId: string }; request: Request };

/** An error answer's status and body: what every refusal of the API says (apiError sends it). */
export type Problem = { status: number; body: { error: { code: string; message: string; field?: string } } };

export const problem = (status: number, code: string, message: string, field?: string): Problem => ({
  status,
  body: { error: { code, message, ...(field ? { field } : {}) } },
});

/** A refusal as the response that sends it. */
export const problemResponse = (refused: Problem): Response => Response.json(refused.body, { status: refused.status });

export function apiError(status: number, code: string, message: string, field?: string): Response {
  return problemResponse(problem(status, code, message, field));
}

/** Reads and validates a JSON body; errors name the offending field. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = await readBodyText(request);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiProblem(400, "invalid_json", "The body is not valid JSON.");
  }
  return parseOrThrow(schema, body);
}

/** The body as text, refusing (without reading further) once it passes maxBytes. */
export async function readBodyText(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => new ApiProblem(413, "payload_too_large", `The body may have at most ${maxBytes} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    bytes += chunk.value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A query schema: an object, or an object whose output is then transformed. */
type QuerySchema = z.ZodObject | z.ZodPipe<z.ZodObject, z.ZodType>;

/**
 * Reads and validates the query string. A parameter the route does not take, or one given twice,
 * is a 400 naming it (a mistyped filter must not be answered as if it had been applied), as the
 * analytics routes refuse theirs (refuseOddFilterParams); so is a value with a NUL or another
 * control character, whatever the schema does with it (PostgreSQL cannot store NUL).
 */
export function readQuery<S extends QuerySchema>(request: Request, schema: S): z.output<S> {
  const searchParams = new URL(request.url).searchParams;
  const object: z.ZodObject = schema instanceof z.ZodPipe ? schema.in : (schema as z.ZodObject);
  const taken = Object.keys(object.shape);
  const problem = (name: string, message: string) => new ApiProblem(400, "validation_error", `${name}: ${message}`, name);
  for (const name of new Set(searchParams.keys())) {
    if (!taken.includes(name)) throw problem(name, taken.length ? `unknown parameter; this route takes ${taken.join(", ")}` : "unknown parameter; this route takes none");
    if (searchParams.getAll(name).length > 1) throw problem(name, "give it once");
    if (hasControlCharacters(searchParams.get(name)!)) throw problem(name, "the value contains a control character or a line break; remove it");
  }
  return parseOrThrow(schema, Object.fromEntries(searchParams)) as z.output<S>;
}


/**
 * Every /api/v1 route goes through here: the bearer key is authenticated and turned into a
 * caller scoped to its workspace, acting as the key's member with the lower of the key's scope
 * and that member's current role (lib/api-keys/api-keys.ts), so each route's `canX` call judges
 * the key as it would judge that member in the UI. Every error becomes
 * `{ "error": { "code", "message", "field"? } }` with a fitting status.
 */
export function apiRoute<P>(handler: (ctx: ApiContext, params: P) => Promise<Response>) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const header = request.headers.get("authorization") ?? "";
    const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!key) return apiError(401, "unauthorized", "Send an API key as `Authorization: Bearer <key>`. Create one in Settings.");
    let auth: ApiKeyCaller | null = null;
    try {
      auth = await authenticateApiKey(key);
      if (!auth) return apiError(401, "unauthorized", "This API key is not valid, was revoked, or belongs to someone who left the workspace.");
      const caller = { workspaceId: auth.workspaceId, userId: auth.userId, role: auth.role, apiKeyId: auth.apiKeyId };
      return await handler({ caller, request }, await route.params);
    } catch (error) {
      if (error instanceof ApiProblem) return apiError(error.status, error.code, error.message, error.field);
      if (error instanceof ForbiddenError && auth) {
        const why = `This API key acts as ${auth.role} (its scope is ${auth.scope}; its member is ${/^[aeiou]/.test(auth.memberRole) ? "an" : "a"} ${auth.memberRole}).`;
        return apiError(error.status, error.code, `${error.message} ${why}`, error.field);
      }
      if (error instanceof UserError) return apiError(error.status, error.code, error.message, error.field);
      const requestId = randomUUID().slice(0, 8);
      const raced = deletedMeanwhile(error);
      if (raced) {
        // Logged too: a wrong id in the code reads the same way as a race, and must stay visible.
        console.warn(`[api] request ${requestId}: a row it changes or names is gone (${raced.code}):`, error);
        return apiError(raced.status, raced.code, raced.message);
      }
      console.error(`[api] request ${requestId} failed:`, error);
      return apiError(500, "internal", `Something went wrong on our side (request ${requestId}).`);
    }
  };
}

/** The route's `[id]` segment, which must be a UUID. */
export const idParam = z.object({ id: z.uuid("id must be a UUID") });

/** JSON with bigint values turned into numbers (money is in micro-dollars, far below 2^53). */
/** JSON text as the API sends it: a bigint (a count from raw SQL) as a number. */
export const jsonText = (data: unknown): string => JSON.stringify(data, (_key, value) => (typeof value === "bigint" ? Number(value) : value));

export function json(data: unknown, init?: ResponseInit): Response {
  return new Response(jsonText(data), {
    ...init,
    headers: { "content-type": "application/json", ...(init?.headers ?? {}) },
  });
}
