// Calls of the REST API v1 route handlers the way Next.js makes them (a real `Request`, the route
// params as a promise), second workspaces with their own API keys, and the row counts that prove
// a refused request stored nothing. Prisma is used only to look, and to arrange what the API
// cannot (another tenant, a capture a worker would have finished).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/db/prisma";
import { createWorkspace } from "@/lib/workspaces/workspaces";

export type Route<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export type ApiResult = {
  status: number;
  headers: Headers;
  // The parsed JSON body; tests read whatever shape the endpoint documents.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
};

export type CallOptions<P> = {
  method?: "GET" | "POST";
  /** Path and query, e.g. `/api/v1/checks?page=2`. */
  path: string;
  /** Sent as `Authorization: Bearer <key>`; null sends no Authorization header. */
  apiKey: string | null;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify. */
  json?: unknown;
  /** A raw body (invalid JSON, a stream without Content-Length). */
  body?: BodyInit;
  params?: P;
};

/** Calls a route handler with a real Request and reads its JSON answer. */
export async function callRoute<P>(route: Route<P>, options: CallOptions<P>): Promise<ApiResult> {
  const headers: Record<string, string> = { ...(options.apiKey !== null ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers };
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const streamed = typeof ReadableStream !== "undefined" && body instanceof ReadableStream;
  const request = new Request(`http://test${options.path}`, {
    method: options.method ?? "GET",
    headers,
    body,
    ...(streamed ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await route(request, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${options.method ?? "GET"} ${options.path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 500)}`);
  }
  expect(response.headers.get("content-type"), `content-type of ${options.path}`).toMatch(/application\/json/);
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Asserts an API error: the status, `{ error: { code, message, field? } }` with a non-empty
 * message, and when given, the code and the field (`prompts` also accepts `prompts.0.text`).
 */
export function expectApiError(result: ApiResult, status: number, expected: { code?: string; field?: string } = {}): { code: string; message: string; field?: string } {
  const shown = JSON.stringify(result.body).slice(0, 1000);
  expect(result.status, `status of ${shown}`).toBe(status);
  expect(result.body, shown).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) });
  const error = result.body.error as { code: string; message: string; field?: string };
  expect(error.message.trim().length, shown).toBeGreaterThan(0);
  if (expected.code) expect(error.code, shown).toBe(expected.code);
  if (expected.field) {
    expect(error.field, `field of ${shown}`).toBeDefined();
    expect(error.field === expected.field || error.field!.startsWith(`${expected.field}.`), `field of ${shown} is ${expected.field}`).toBe(true);
  }
  return error;
}

/** Rows a check request could write, across all workspaces. */
export async function storedRows() {
  const [checks, captures, prompts, events, jobs, budget] = await Promise.all([
    db().check.count(),
    db().capture.count(),
    db().prompt.count(),
    db().event.count(),
    graphileJobCount(),
    db().budgetPeriod.aggregate({ _sum: { reservedMicros: true, chargedMicros: true }, _count: true }),
  ]);
  return {
    checks,
    captures,
    prompts,
    events,
    jobs,
    budgetPeriods: budget._count,
    reservedMicros: String(budget._sum.reservedMicros ?? 0n),
    chargedMicros: String(budget._sum.chargedMicros ?? 0n),
  };
}

export async function graphileJobCount(): Promise<number> {
  const [row] = await db().$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM graphile_worker.jobs`;
  return row.n;
}

/** The graphile-worker job of a capture (key `capture:<id>`), if one is waiting. */
export async function captureJob(captureId: string) {
  const rows = await db().$queryRaw<{ id: string; task_identifier: string; key: string; run_at: Date; locked_at: Date | null; flags: unknown }[]>`
    SELECT id::text, task_identifier, key, run_at, locked_at, flags FROM graphile_worker.jobs WHERE key = ${`capture:${captureId}`}`;
  return rows[0] ?? null;
}

/** What a worker does with the job of a capture that is already terminal: it goes away. */
export async function removeCaptureJob(captureId: string): Promise<void> {
  await db().$executeRaw`SELECT graphile_worker.remove_job(${`capture:${captureId}`})`;
}

export type Tenant = {
  workspaceId: string;
  userId: string;
  brandId: string;
  /** Oldest first. */
  promptIds: string[];
  apiKey: string;
  apiKeyId: string;
};

/**
 * A workspace of its own (the default simulated providers, plus `extraProvider` if given), with
 * one brand, the given prompts and an admin API key of its owner.
 */
export async function createTenant(
  name: string,
  options: { prompts?: { text: string; tags?: string[] }[]; extraProvider?: string } = {},
): Promise<Tenant> {
  const suffix = randomUUID().slice(0, 8);
  const user = await db().user.create({ data: { id: randomUUID(), name: `${name} Owner`, email: `owner.${suffix}@example.com` } });
  const workspace = await createWorkspace(user.id, `${name} ${suffix}`);
  if (options.extraProvider) {
    const first = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: workspace.id }, orderBy: { name: "asc" } });
    await db().providerConfig.create({ data: { workspaceId: workspace.id, name: options.extraProvider, connectionId: first.connectionId, model: first.model, searchMode: first.searchMode } });
  }
  const brand = await db().brand.create({ data: { workspaceId: workspace.id, name: `${name} Brand`, aliases: [], domains: [] } });
  const promptIds: string[] = [];
  for (const prompt of options.prompts ?? [{ text: `Which product does ${name} recommend?` }]) {
    promptIds.push((await db().prompt.create({ data: { workspaceId: workspace.id, text: prompt.text, tags: prompt.tags ?? [] } })).id);
  }
  const key = await createApiKey(workspace.id, { name: `${name} integration tests`, scope: "admin", createdById: user.id });
  return { workspaceId: workspace.id, userId: user.id, brandId: brand.id, promptIds, apiKey: key.key, apiKeyId: key.id };
}

/**
 * A request body sent in two parts: `started` resolves once the route has read the first (it
 * reads a body only after authenticating the request), and the second is sent on `sendRest()`.
 * The worst moment for whatever happens between a request's authorization and its writes.
 */
export function twoPartBody(first: string | Uint8Array, rest: string | Uint8Array) {
  const bytes = (part: string | Uint8Array) => (typeof part === "string" ? new TextEncoder().encode(part) : part);
  let reading!: () => void;
  const started = new Promise<void>((resolve) => (reading = resolve));
  let sendRest!: () => void;
  const released = new Promise<void>((resolve) => (sendRest = resolve));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulls++ === 0) {
        controller.enqueue(bytes(first));
        reading();
        return;
      }
      await released;
      controller.enqueue(bytes(rest));
      controller.close();
    },
  });
  return { body, started, sendRest };
}
