import { LOG_FORMATS } from "@/lib/traffic/formats";
import { VISIT_PAGES, VISIT_VIEWS } from "@/lib/analytics/visits-query";
import { z } from "zod";
import { CHART_LIST, CHART_NAMES, CHART_PARAMS } from "@/lib/analytics/charts";
import { MAX_RANGE_DAYS, RANGE_PRESETS } from "@/lib/analytics/schemas";
import { createCheckBody, MAX_CAPTURES_PAGE } from "@/lib/api/schemas";
import { API_KEY_SCOPE_DESCRIPTIONS, API_KEY_SCOPES, type ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { CHECK_STATUSES } from "@/lib/captures/states";
import { connectionInputSchema } from "@/lib/providers/registry";
import { providerConfigInputSchema } from "@/lib/providers/schemas";

const error = {
  description: "Error",
  content: { "application/json": { schema: { type: "object", properties: { error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" }, field: { type: "string" } }, required: ["code", "message"] } } } } },
};
const ok = (description: string) => ({ description, content: { "application/json": { schema: { type: "object" } } } });
const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const page = [
  { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
  { name: "pageSize", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
];
const forbidden = {
  ...error,
  description: "The key may not do this: its scope, or its member's current role, is too low (the message says which role the key acts as).",
};
const errors = { 400: error, 401: error, 403: forbidden, 404: error, 422: error };

/** The scope an operation needs (OpenAPI 3.1 lets a bearer requirement name roles). */
const needs = (scope: ApiKeyScope) => ({ security: [{ bearer: [scope] }] });

const scopes =
  `Every key has a scope, chosen when it is created: ${API_KEY_SCOPES.map((s) => `\`${s}\` (${API_KEY_SCOPE_DESCRIPTIONS[s]})`).join("; ")}. ` +
  "A key belongs to the member who created it (keys made with the CLI: the workspace's first owner) and acts with its scope or that member's current role, whichever is lower; " +
  "it stops working (401) when that member leaves the workspace. A request the key may not make is refused with 403 and stores nothing.";

/** What GET /api/v1/providers answers (app/api/v1/providers/route.ts). */
const providersResponse = z.object({
  providers: z.array(
    z.object({
      name: z.string().describe("What a check names it"),
      connection: z.string().describe("The instance's provider connection it runs on; operators set its prices, limits and API key"),
      adapter: connectionInputSchema.shape.adapter,
      model: z.string(),
      searchMode: providerConfigInputSchema.shape.searchMode,
      enabled: z.boolean().describe("Enabled by the workspace's admins"),
      granted: z.boolean().describe("The workspace may call its connection with its model now: enabled by the operators, granted to the workspace (or to all), the model on the allowlist"),
      configured: z.boolean().describe("This server has the API key its connection needs"),
    }),
  ),
});

const filterParameters = [
  { name: "brand", in: "query", description: "A brand's id (GET /api/v1/brands); default the workspace's first brand", schema: { type: "string", format: "uuid" } },
  { name: "providers", in: "query", description: "Provider ids, comma-separated or repeated; default all", schema: { type: "string" } },
  { name: "tags", in: "query", description: "Prompt tags, comma-separated or repeated: prompts with any of them", schema: { type: "string" } },
  { name: "markets", in: "query", description: "Markets as country:language (e.g. `DE:de`, `US:`), comma-separated", schema: { type: "string" } },
  { name: "range", in: "query", description: "The last 7, 30 or 90 days up to today (UTC); default 30. Not together with from/to", schema: { type: "integer", enum: [...RANGE_PRESETS] } },
  { name: "from", in: "query", description: `First day (UTC), inclusive; default 29 days before \`to\`. At most ${MAX_RANGE_DAYS} days`, schema: { type: "string", format: "date" } },
  { name: "to", in: "query", description: "Last day (UTC), inclusive; default today", schema: { type: "string", format: "date" } },
];

/** The charts' own parameters (cited-pages' page and pageSize), from their schemas. */
const chartParameters = CHART_PARAMS.map(({ name, charts, schema }) => {
  const json = Object.fromEntries(Object.entries(z.toJSONSchema(schema, { io: "input" })).filter(([key]) => key !== "$schema"));
  return { name, in: "query", description: `${charts.join(", ")} only`, schema: json };
});

const estimate = {
  type: "object",
  description: "A rate or mean with its sample size and 95 % interval (Wilson for proportions, delta method for share of voice, normal for means); value and bounds null when n is too small",
  properties: { value: { type: ["number", "null"] }, n: { type: "integer" }, low: { type: ["number", "null"] }, high: { type: ["number", "null"] } },
  required: ["value", "n", "low", "high"],
};

/** The REST API described for clients (served at /api/v1/openapi.json). */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Beacon API",
    version: "1",
    description:
      "Start and follow checks from scripts. Authenticate with `Authorization: Bearer <key>` (create keys in Settings or with `npm run beacon -- api-key create`). " +
      "Money is in integer micro-dollars (1 USD = 1,000,000). Errors are `{ \"error\": { \"code\", \"message\", \"field\"? } }`. " +
      scopes,
  },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: scopes } }, schemas: { Estimate: estimate } },
  security: [{ bearer: [] }],
  paths: {
    "/api/v1/checks": {
      post: {
        summary: "Start a check",
        description:
          "Scope `write` or `admin`. Same Idempotency-Key and same body: the same check (202, header idempotent-replayed). Same key, different body: 422. Missing key: 400. Over the monthly budget: 402.",
        ...needs("write"),
        parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", minLength: 8, maxLength: 200 } }],
        requestBody: { required: true, content: { "application/json": { schema: z.toJSONSchema(createCheckBody, { io: "input" }) } } },
        responses: { 202: ok("The check (new or replayed)"), 402: error, ...errors },
      },
      get: {
        summary: "List checks",
        ...needs("read"),
        parameters: [...page, { name: "status", in: "query", schema: { type: "string", enum: [...CHECK_STATUSES] } }],
        responses: { 200: ok("A page of checks"), ...errors },
      },
    },
    "/api/v1/checks/{id}": {
      get: {
        summary: "A check with its progress and a page of its captures",
        description:
          `\`check\` has the status, counts per status, cost and \`operation\`, its latest cancel or retry (null if none). \`captures\` is one page of the check's captures, ordered by prompt id, provider and sample; ` +
          `\`capturesPage\` says which (\`page\`, \`pageSize\`, \`total\`). The default page size, ${MAX_CAPTURES_PAGE}, is also the largest: checks up to that size come whole.`,
        ...needs("read"),
        parameters: [
          id,
          { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
          { name: "pageSize", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_CAPTURES_PAGE, default: MAX_CAPTURES_PAGE } },
        ],
        responses: { 200: ok("The check and a page of its captures"), ...errors },
      },
    },
    "/api/v1/checks/{id}/cancel": {
      post: {
        summary: "Cancel a check",
        description:
          "Scope `admin`, or `write` for a check the key's member started (in the UI or with one of their keys). " +
          "Answers `{ operationId }` at once: the check starts no more captures, and a worker cancels its waiting captures and stops the running ones " +
          "(partial answers kept), after any retry of it asked before. `GET /api/v1/checks/{id}` shows the operation as `check.operation`. " +
          "Asked again while it waits, the same operation; a finished check with no retry waiting is a 400.",
        ...needs("write"),
        parameters: [id],
        responses: { 202: ok("The cancel's operation, to follow on the check"), ...errors },
      },
    },
    "/api/v1/captures/{id}": { get: { summary: "A capture: answer, attempts, sources", ...needs("read"), parameters: [id], responses: { 200: ok("The capture"), ...errors } } },
    "/api/v1/captures/{id}/cancel": {
      post: {
        summary: "Cancel a capture",
        description: "Scope `admin`, or `write` for a capture of a check the key's member started.",
        ...needs("write"),
        parameters: [id],
        responses: { 202: ok("Cancelled"), ...errors },
      },
    },
    "/api/v1/captures/{id}/retry": {
      post: {
        summary: "Retry a failed or cancelled capture",
        description:
          "Scope `admin`. 409 with the reason, changing nothing, when the capture cannot run again: it holds a paid answer, or the operator revoked the " +
          "workspace's grant, disabled the connection or took the model off its allowlist.",
        ...needs("admin"),
        parameters: [id],
        responses: { 202: ok("Queued again"), 402: error, 409: error, ...errors },
      },
    },
    "/api/v1/analytics/{chart}": {
      get: {
        summary: "A dashboard chart's numbers",
        description:
          "The same numbers as the dashboards, from the same query: every rate comes as an estimate `{ value, n, low, high }` (see components.schemas.Estimate), money in micro-dollars, days in UTC. " +
          "Only succeeded captures of the brand whose answer finished in the range count. Charts: " +
          CHART_LIST.map((chart) => `\`${chart.name}\`: ${chart.description}.`).join(" ") +
          " A brand or provider of another workspace is 404; an unknown or repeated parameter, a bad date or range is 400 naming it.",
        ...needs("read"),
        parameters: [
          { name: "chart", in: "path", required: true, schema: { type: "string", enum: CHART_NAMES } },
          ...filterParameters,
          ...chartParameters,
        ],
        responses: { 200: ok("The chart"), ...errors },
      },
    },
    "/api/v1/brands": { get: { summary: "Brands and competitors", ...needs("read"), responses: { 200: ok("Brands"), ...errors } } },
    "/api/v1/traffic/logs": {
      post: {
        summary: "Import an access log (AI crawler hits)",
        description:
          "The body is the log file: nginx/Apache combined, Cloudflare Logpush NDJSON, Vercel or Netlify log drain JSON, or CSV (timestamp,host,path,status,user_agent,ip), plain or gzip " +
          "(Content-Encoding: gzip or by its magic bytes), at most BEACON_TRAFFIC_UPLOAD_MAX_MB after gzip is undone (413). Only known crawlers' hits to the workspace's own domains are stored. " +
          "200 with the report; a line that cannot be read is listed with its number and the others are kept. " +
          "With an Idempotency-Key (kept 24 hours) the same log sent again stores only the lines not stored yet (after an upload broke off or a response was lost) and, once the import ended, returns its report; " +
          "another log or query with the key: 422; while a request with the key is still importing: 409. Without a key, a log sent twice is counted twice.",
        ...needs("write"),
        parameters: [
          { name: "format", in: "query", required: false, schema: { type: "string", enum: [...LOG_FORMATS] } },
          { name: "host", in: "query", required: false, schema: { type: "string" }, description: "The site of lines without a host (combined, Netlify); default: the workspace's only domain" },
          { name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", minLength: 8, maxLength: 200 } },
        ],
        requestBody: { required: true, content: { "text/plain": { schema: { type: "string" } }, "application/gzip": { schema: { type: "string", format: "binary" } } } },
        responses: { 200: ok("The import report"), 409: error, 413: error, ...errors },
      },
    },
    "/api/v1/traffic/visits": {
      get: {
        summary: "Visits sent by AI assistants",
        description:
          "Page views of the workspace's own domains that an assistant sent (its referrer, or a utm_source naming it), as reported by the /t.js script (docs/traffic.md). " +
          "`by=page`: `pages` as `{ domain, path, visits, byAssistant }`, most visited first, a page of them (`page`, `pageSize`, and `total` landing pages); `by=day`: `days` as `{ day, assistant, visits }`, every day at once. Days in UTC.",
        ...needs("read"),
        parameters: [
          { name: "by", in: "query", schema: { type: "string", enum: [...VISIT_VIEWS], default: "page" } },
          { name: "from", in: "query", description: `First day (UTC), inclusive; default 29 days before \`to\`. At most ${MAX_RANGE_DAYS} days`, schema: { type: "string", format: "date" } },
          { name: "to", in: "query", description: "Last day (UTC), inclusive; default today", schema: { type: "string", format: "date" } },
          { name: "page", in: "query", description: "by=page only", schema: { type: "integer", minimum: 1, default: 1 } },
          { name: "pageSize", in: "query", description: "by=page only", schema: { type: "integer", minimum: 1, maximum: VISIT_PAGES.max, default: VISIT_PAGES.default } },
        ],
        responses: { 200: ok("The visits"), ...errors },
      },
    },
    "/api/v1/traffic/readiness": {
      get: {
        summary: "Site readiness of the own domains",
        description:
          "Per own domain (the brands' domains), as last checked (daily, or by \"Check site readiness\"): robots.txt's outcome (`found`, `missing` = everything allowed, `unreachable` = 5xx, 429 or no answer, " +
          "everything disallowed, RFC 9309), whether /llms.txt answers 200 with text, the most-cited own pages, and per crawler purpose (training, search, user) each AI crawler's robots verdict " +
          "for \"/\" and each page plus the status its user agent got: an HTTP status, `blocked` (robots.txt disallows it, not fetched), `timeout`, `refused` (a non-public address, also after a " +
          "redirect), `error`, or null for robots-only tokens (Google-Extended, Applebot-Extended). `checkedAt` is null for a domain not checked yet; `checking` is true while a check is queued or running.",
        ...needs("read"),
        responses: { 200: ok("Readiness per domain"), ...errors },
      },
    },
    "/api/v1/prompts": {
      get: {
        summary: "Prompts",
        ...needs("read"),
        parameters: [
          { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
          { name: "pageSize", in: "query", schema: { type: "integer", minimum: 5, maximum: 100, default: 25 } },
          { name: "q", in: "query", schema: { type: "string" } },
          { name: "tag", in: "query", schema: { type: "string" } },
        ],
        responses: { 200: ok("A page of prompts"), ...errors },
      },
    },
    "/api/v1/providers": {
      get: {
        summary: "Providers a check can name",
        description: "The workspace's providers: `id` (what analytics' `providers` takes), `name` (what a check takes), connection, adapter, model, search mode. A check may name one that is `usable`: `enabled`, `granted` and `configured`.",
        ...needs("read"),
        responses: { 200: { description: "Providers", content: { "application/json": { schema: z.toJSONSchema(providersResponse) } } }, ...errors },
      },
    },
  },
};
