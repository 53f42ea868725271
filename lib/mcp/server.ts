import "server-only";
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CHART_LIST, CHART_NAMES, CHART_PARAMS } from "@/lib/analytics/charts";
import { capturesInScope } from "@/lib/analytics/export";
import { readChart, resolveFilterParams, sharedFilters } from "@/lib/analytics/read-chart";
import { analyticsFilterInput, filterSearchParams, RANGE_PRESETS } from "@/lib/analytics/schemas";
import type { CitedPages, TopDomainsOverTime } from "@/lib/analytics/sources";
import { ApiProblem, ForbiddenError, UserError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation/parse";
import { createCheckBody } from "@/lib/api/schemas";
import { startCheckForKey } from "@/lib/api/start-check";
import type { ApiKeyCaller } from "@/lib/api-keys/api-keys";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { listBrands } from "@/lib/brands/brands";
import { getCheckSummary } from "@/lib/checks/queries";
import { listPrompts } from "@/lib/prompts/prompts";
import { promptListQuerySchema } from "@/lib/prompts/schemas";
import { providersForCallers } from "@/lib/workspaces/provider-configs";
import { EARLIEST_DAY } from "@/lib/validation/day";

/** Who calls the tools: the API key, authenticated again for each call (a revoked key stops at once). */
export type McpAuth = () => Promise<ApiKeyCaller | null>;

const filterShape = analyticsFilterInput.in.shape;

/** The dashboards' filter, as tool arguments (the same fields and rules as the UI's query string). */
const filter = {
  brand: filterShape.brandId.describe("A brand's id (list_brands); default the workspace's first brand"),
  providers: z.array(z.string()).max(100).optional().describe("Provider ids (list_providers); default all"),
  tags: z.array(z.string()).max(100).optional().describe("Prompt tags: prompts with any of them"),
  markets: z.array(z.string()).max(100).optional().describe("Markets as country:language, e.g. DE:de or US:"),
  range: z
    .number()
    .int()
    .refine((r) => (RANGE_PRESETS as readonly number[]).includes(r), `range must be ${RANGE_PRESETS.join(", ")}`)
    .optional()
    .describe("The last 7, 30 or 90 days up to today (UTC); default 30. Not together with from/to"),
  from: z.string().optional().describe("First day, YYYY-MM-DD (UTC), inclusive"),
  to: z.string().optional().describe("Last day, YYYY-MM-DD (UTC), inclusive; default today"),
};

type FilterArgs = { brand?: string; providers?: string[]; tags?: string[]; markets?: string[]; range?: number; from?: string; to?: string };

/** The arguments as the query string REST and the dashboards take, so the one parser judges them. */
function filterParams(args: FilterArgs, extra: Record<string, unknown> = {}): URLSearchParams {
  const params = filterSearchParams({ brandId: args.brand, providers: args.providers, tags: args.tags, markets: args.markets, from: args.from, to: args.to });
  if (args.range !== undefined) params.set("range", String(args.range));
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) params.set(name, String(value));
  return params;
}

/**
 * The charts' own parameters as tool arguments: whole numbers where the chart reads one
 * (cited-pages' page and pageSize), otherwise the text of the query string. They go into the
 * query string, so the chart's own schema judges them as it does REST's.
 */
const chartArgs = Object.fromEntries(
  CHART_PARAMS.map(({ name, charts, schema }) => {
    const arg = z.toJSONSchema(schema, { io: "input" }).type === "integer" ? z.number().int() : z.string();
    return [name, arg.optional().describe(`${charts.join(", ")} only`)];
  }),
);

const ok = (data: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(data, (_key, value) => (typeof value === "bigint" ? Number(value) : value)) }],
});
const refused = (message: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: message }] });

const ANSWER_CHARS = 1_000;

/**
 * The MCP server of one API key (streamable HTTP at /api/mcp, stdio with `npm run beacon -- mcp`):
 * tools over the same lib functions as REST v1, each call authorized like the matching route
 * (canView to read, canStartCheck to start a check) and scoped to the key's workspace.
 */
export async function createMcpServer(auth: McpAuth): Promise<McpServer> {
  // Loaded here, not with this module: the operator CLI bundles this module with every command
  // (esbuild hoists a package's static import to the bundle's top), and the SDK was about a
  // third of the CPU a CLI start took (0.2 of 0.6 s), for the one command that serves MCP.
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const server = new McpServer({ name: "beacon", version: "1" });

  /** Runs a tool as the key's caller; refusals become tool errors the model can read. */
  const run = async (act: (caller: ApiKeyCaller) => Promise<unknown>, needs = ""): Promise<CallToolResult> => {
    const caller = await auth();
    if (!caller) return refused("This API key is not valid, was revoked, or belongs to someone who left the workspace.");
    try {
      return ok(await act(caller));
    } catch (error) {
      if (error instanceof ForbiddenError) {
        const member = `${/^[aeiou]/.test(caller.memberRole) ? "an" : "a"} ${caller.memberRole}`;
        return refused(`${error.message} This API key acts as ${caller.role} (its scope is ${caller.scope}; its member is ${member}).${needs && ` ${needs}`}`);
      }
      if (error instanceof ApiProblem || error instanceof UserError) return refused(error.message);
      const requestId = randomUUID().slice(0, 8);
      console.error(`[mcp] tool call ${requestId} failed:`, error);
      return refused(`Something went wrong on our side (request ${requestId}).`);
    }
  };
  // Arguments as REST's bodies are judged (.strict()): one the tool does not know is refused,
  // naming it, not dropped (a mistyped "sampels" started a paid check of one sample).
  const toolArgs = <Shape extends z.ZodRawShape>(shape: Shape) => z.strictObject(shape);
  const read = (act: (caller: ApiKeyCaller) => Promise<unknown>) =>
    run((caller) => {
      assertCan(canView(caller));
      return act(caller);
    });

  server.registerTool("list_brands", { description: "The workspace's brands with aliases, domains and competitors", annotations: { readOnlyHint: true } }, () =>
    read((caller) => listBrands(caller.workspaceId)),
  );

  server.registerTool(
    "list_prompts",
    {
      description: "The workspace's prompts (buyer questions), newest first, paged",
      inputSchema: toolArgs({ q: z.string().optional().describe("Text to search for"), tag: z.string().optional(), page: z.number().int().optional(), pageSize: z.number().int().optional() }),
      annotations: { readOnlyHint: true },
    },
    (args) => read((caller) => listPrompts(caller.workspaceId, parseOrThrow(promptListQuerySchema, args))),
  );

  server.registerTool("list_providers", { description: "The workspace's providers (AI answer engines) and whether a check may use each", annotations: { readOnlyHint: true } }, () =>
    read((caller) => providersForCallers(caller.workspaceId)),
  );

  server.registerTool(
    "get_numbers",
    {
      description:
        "A dashboard's numbers for a filter, exactly as the dashboards show them: every rate is { value, n, low, high } (its sample size and 95 % interval). " +
        `Money is in micro-dollars. Charts: ${CHART_LIST.map((chart) => `${chart.name} (${chart.description})`).join("; ")}.`,
      inputSchema: toolArgs({ chart: z.enum(CHART_NAMES).default("kpis"), ...filter, ...chartArgs }),
      annotations: { readOnlyHint: true },
    },
    ({ chart, ...args }) =>
      read((caller) => readChart(caller.workspaceId, chart, filterParams(args, Object.fromEntries(CHART_PARAMS.map(({ name }) => [name, (args as Record<string, unknown>)[name]]))))),
  );

  server.registerTool(
    "list_top_sources",
    {
      description: "The domains and pages the answers cite most for a filter, and the rate of answers citing the brand's own domains (with n and 95 % interval)",
      inputSchema: toolArgs({ ...filter, limit: z.number().int().min(1).max(100).default(10).describe("How many pages") }),
      annotations: { readOnlyHint: true },
    },
    ({ limit, ...args }) =>
      read(async (caller) => {
        const filters = sharedFilters();
        const [domains, ownDomain, pages] = await Promise.all([
          readChart(caller.workspaceId, "top-domains", filterParams(args), filters) as Promise<TopDomainsOverTime>,
          readChart(caller.workspaceId, "own-domain", filterParams(args), filters),
          readChart(caller.workspaceId, "cited-pages", filterParams(args, { pageSize: limit }), filters) as Promise<CitedPages>,
        ]);
        return { domains: domains.domains, ownDomain, pages: pages.items, pagesTotal: pages.total };
      }),
  );

  server.registerTool(
    "list_answers",
    {
      description:
        "The answers behind the numbers: the succeeded captures in scope of a filter, oldest first, with prompt, provider, whether the brand is mentioned, its position and sentiment, and the answer (cut at 1,000 characters). Pass `next` as `after` for the following page.",
      inputSchema: toolArgs({ ...filter, after: z.string().optional().describe("The `next` of the previous page"), limit: z.number().int().min(1).max(100).default(20) }),
      annotations: { readOnlyHint: true },
    },
    ({ after, limit, ...args }) =>
      read(async (caller) => {
        const resolved = await resolveFilterParams(caller.workspaceId, filterParams(args));
        const cursor = after ? parseCursor(after) : null;
        const rows = await capturesInScope(resolved.filter, cursor, limit + 1);
        const answers = rows.slice(0, limit).map((r) => ({
          captureId: r.id,
          finishedAt: r.finishedAt,
          prompt: r.prompt,
          provider: r.provider,
          sample: r.sample,
          brandMentioned: r.mentioned,
          position: r.position,
          sentiment: r.sentiment,
          answer: r.answer && r.answer.length > ANSWER_CHARS ? `${r.answer.slice(0, ANSWER_CHARS)}…` : r.answer,
        }));
        const last = rows.length > limit ? rows[limit - 1]! : null;
        return { brand: resolved.brand.name, answers, next: last ? `${last.finishedAt.toISOString()}_${last.id}` : null };
      }),
  );

  server.registerTool(
    "start_check",
    {
      description:
        "Start a check: ask the prompts (all, those with a tag, or some by id) of a brand on the named providers. Needs a key with scope write. " +
        "Idempotent: the same idempotencyKey with the same arguments returns the same check; with different arguments it is refused. Returns at once; follow it with get_check.",
      inputSchema: toolArgs({ idempotencyKey: z.string().describe("A fresh value (e.g. a UUID) per check you mean to start"), ...createCheckBody.shape }),
    },
    ({ idempotencyKey, ...body }) =>
      run(async (caller) => {
        const { check, replayed } = await startCheckForKey(caller, idempotencyKey, parseOrThrow(createCheckBody, body));
        return { check, replayed };
      }, "Starting a check needs a key with scope write or admin, of a member, admin or owner."),
  );

  server.registerTool(
    "get_check",
    {
      description: "A check's status (queued, running, completed, completed_with_errors, failed, cancelled), its counts per capture status, its cost and its latest cancel or retry (operation)",
      inputSchema: toolArgs({ checkId: z.uuid("checkId must be a check's id") }),
      annotations: { readOnlyHint: true },
    },
    ({ checkId }) => read((caller) => getCheckSummary(caller.workspaceId, checkId)),
  );

  return server;
}

function parseCursor(after: string): { at: Date; id: string } {
  const [at, id] = after.split("_");
  const parsed = z.object({ at: z.iso.datetime().refine((at) => at >= EARLIEST_DAY), id: z.uuid() }).safeParse({ at, id });
  if (!parsed.success) throw new ApiProblem(400, "validation_error", "after: pass the `next` value of the previous page", "after");
  return { at: new Date(parsed.data.at), id: parsed.data.id };
}
