import { z } from "zod";
import { createCheckBody } from "@/lib/api/schemas";
import { CHECK_STATUSES } from "@/lib/captures/states";

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
const errors = { 400: error, 401: error, 403: error, 404: error, 422: error };

/** The REST API described for clients (served at /api/v1/openapi.json). */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Beacon API",
    version: "1",
    description:
      "Start and follow checks from scripts. Authenticate with `Authorization: Bearer <key>` (create keys in Settings or with `npm run beacon -- api-key create`). " +
      "Money is in integer micro-dollars (1 USD = 1,000,000). Errors are `{ \"error\": { \"code\", \"message\", \"field\"? } }`.",
  },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  security: [{ bearer: [] }],
  paths: {
    "/api/v1/checks": {
      post: {
        summary: "Start a check",
        description:
          "Same Idempotency-Key and same body: the same check (202, header idempotent-replayed). Same key, different body: 422. Missing key: 400. Over the monthly budget: 402.",
        parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", minLength: 8, maxLength: 200 } }],
        requestBody: { required: true, content: { "application/json": { schema: z.toJSONSchema(createCheckBody, { io: "input" }) } } },
        responses: { 202: ok("The check (new or replayed)"), 402: error, ...errors },
      },
      get: {
        summary: "List checks",
        parameters: [...page, { name: "status", in: "query", schema: { type: "string", enum: [...CHECK_STATUSES] } }],
        responses: { 200: ok("A page of checks"), ...errors },
      },
    },
    "/api/v1/checks/{id}": { get: { summary: "A check with its progress and captures", parameters: [id], responses: { 200: ok("The check"), ...errors } } },
    "/api/v1/checks/{id}/cancel": { post: { summary: "Cancel a check", parameters: [id], responses: { 202: ok("What was cancelled"), ...errors } } },
    "/api/v1/captures/{id}": { get: { summary: "A capture: answer, attempts, sources", parameters: [id], responses: { 200: ok("The capture"), ...errors } } },
    "/api/v1/captures/{id}/cancel": { post: { summary: "Cancel a capture", parameters: [id], responses: { 202: ok("Cancelled"), ...errors } } },
    "/api/v1/captures/{id}/retry": { post: { summary: "Retry a failed or cancelled capture", parameters: [id], responses: { 202: ok("Queued again"), 402: error, ...errors } } },
    "/api/v1/brands": { get: { summary: "Brands and competitors", responses: { 200: ok("Brands"), ...errors } } },
    "/api/v1/prompts": {
      get: {
        summary: "Prompts",
        parameters: [
          { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
          { name: "pageSize", in: "query", schema: { type: "integer", minimum: 5, maximum: 100, default: 25 } },
          { name: "q", in: "query", schema: { type: "string" } },
          { name: "tag", in: "query", schema: { type: "string" } },
        ],
        responses: { 200: ok("A page of prompts"), ...errors },
      },
    },
    "/api/v1/providers": { get: { summary: "Providers a check can name", responses: { 200: ok("Providers"), ...errors } } },
  },
};
