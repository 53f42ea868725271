import "server-only";
import { createHash } from "node:crypto";
import { UserError } from "@/lib/errors";

// The rules every Idempotency-Key follows (DESIGN.md "Idempotency"): a check's creation
// (lib/checks/create-check.ts) and an access log import (lib/traffic/import-record.ts).

/** How long a key answers for its first request; after that it starts a new one. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** The key came again with a different request: 422, nothing done. */
export class IdempotencyMismatchError extends UserError {
  override readonly status = 422;
  override readonly code = "idempotency_key_reused";
}

/** A stable hash of any JSON value (object keys sorted), for idempotency comparisons. */
export function hashRequest(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)]))
        : v;
  return createHash("sha256").update(JSON.stringify(canonical(value))).digest("hex");
}
