import { z } from "zod";
import { apiRoute, json, readQuery } from "@/lib/api/handler";
import { idempotencyKeySchema } from "@/lib/checks/schemas";
import { env } from "@/lib/config/env";
import { ApiProblem } from "@/lib/errors";
import { assertCan, canImportTraffic } from "@/lib/permissions/permissions";
import { LOG_FORMATS } from "@/lib/traffic/formats";
import { importTrafficLog, linesOf } from "@/lib/traffic/import";
import { parseOrThrow } from "@/lib/validation/parse";

export const dynamic = "force-dynamic";

const query = z.object({
  format: z.enum(LOG_FORMATS).optional(),
  host: z.string().trim().min(1).max(253).optional(),
});

/**
 * Import an access log (body: the file, plain or gzip by Content-Encoding or its magic bytes):
 * 200 with the import report; unreadable lines are listed with their numbers, the rest kept.
 * With an Idempotency-Key header, the same log sent again stores only what was not stored yet
 * (lib/traffic/import-record.ts).
 */
export const POST = apiRoute(async ({ caller, request }) => {
  assertCan(canImportTraffic(caller), "This key cannot import traffic logs.");
  const options = readQuery(request, query);
  const rawKey = request.headers.get("idempotency-key");
  // Checked before the body is read, so a bad key is refused whatever the body.
  const idempotencyKey = rawKey === null ? undefined : parseOrThrow(idempotencyKeySchema, rawKey);
  const maxBytes = env().BEACON_TRAFFIC_UPLOAD_MAX_MB * 1_000_000;
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw new ApiProblem(413, "payload_too_large", `The body may have at most ${maxBytes} bytes.`);
  if (!request.body) throw new ApiProblem(400, "empty_body", "Send the log file as the request body.");
  const encoding = request.headers.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "gzip" && encoding !== "identity") throw new ApiProblem(415, "unsupported_encoding", "Content-Encoding may be gzip or identity.");
  const lines = linesOf(request.body as unknown as AsyncIterable<Uint8Array>, { gzip: encoding === "gzip", maxBytes });
  // Each chunk commits only while the key and its member may still import (an API caller is always its key's member).
  const acting = { workspaceId: caller.workspaceId, userId: caller.userId!, apiKeyId: caller.apiKeyId };
  return json({ import: await importTrafficLog(caller.workspaceId, lines, { ...options, acting, idempotencyKey }) });
});
