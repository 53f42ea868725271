import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/config/env";

// Who may read the operator's views of the whole installation: /api/metrics, and the details of
// /api/health (database latency, the workers with their hosts and pids). They name no workspace,
// but they tell an outsider how busy the server is, what it runs on and which providers it calls.

export type MetricsAccess =
  | { allowed: true; why: "token" | "development" }
  | { allowed: false; status: 401 | 403; code: "unauthorized" | "metrics_disabled"; message: string };

export type MetricsAccessConfig = { nodeEnv: string; token?: string };

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * With BEACON_METRICS_TOKEN set: whoever sends `Authorization: Bearer <token>` (compared in
 * constant time), and nobody else. Without it: anyone in development and tests, nobody in
 * production (where the server is reachable by people who are not its operators).
 */
export function canReadMetrics(authorization: string | null, config: MetricsAccessConfig = fromEnv()): MetricsAccess {
  if (config.token) {
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
    if (sent && timingSafeEqual(digest(sent), digest(config.token))) return { allowed: true, why: "token" };
    return { allowed: false, status: 401, code: "unauthorized", message: "Send the metrics token as `Authorization: Bearer <BEACON_METRICS_TOKEN>`." };
  }
  if (config.nodeEnv !== "production") return { allowed: true, why: "development" };
  return {
    allowed: false,
    status: 403,
    code: "metrics_disabled",
    message: "Metrics are off in production until BEACON_METRICS_TOKEN is set; scrapers then send it as `Authorization: Bearer <token>`.",
  };
}

function fromEnv(): MetricsAccessConfig {
  const e = env();
  return { nodeEnv: e.NODE_ENV, token: e.BEACON_METRICS_TOKEN };
}
