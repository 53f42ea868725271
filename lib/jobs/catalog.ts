// Every graphile-worker job, one entry each (trigger.dev's zod-worker catalog): its payload
// schema, job key, flags, max attempts, queue, cron and its backfill. Producers (lib/jobs/enqueue.ts) and the
// worker's task list (worker/tasks/index.ts) both read it, so a job's name, payload and options
// are written down once. Pure: no database access here.
import { z } from "zod";

/** Why alerts are evaluated (lib/alerts/kinds.ts ALERT_KINDS_BY_REASON). */
export const ALERT_REASONS = ["check", "daily", "watch"] as const;
export type AlertReason = (typeof ALERT_REASONS)[number];

// graphile-worker passes cron jobs a `_cron` description; nothing else is expected.
const cronPayload = z.looseObject({});

export const jobCatalog = {
  /** One try at one capture (lib/lifecycle/run/run-capture.ts). */
  capture: {
    payload: z.object({ captureId: z.uuid() }),
    // One job per capture: re-enqueueing replaces a waiting job instead of adding one.
    jobKey: (p: { captureId: string }) => `capture:${p.captureId}`,
    // Lets a worker skip the jobs of a connection at its concurrency cap (forbiddenFlags).
    flag: (connectionId: string) => `p:${connectionId}`,
    // graphile-worker's own retries are a crash safety net only; a capture's attempts follow
    // the app's retry policy (DESIGN.md "Retries by error class").
    maxAttempts: 10,
  },
  /** Re-applies a brand's names and competitors to its stored answers (lib/brands/reanalysis.ts). */
  reanalyze: {
    payload: z.object({ analysisRunId: z.uuid() }),
    // One run at a time per brand.
    queueName: (brandId: string) => `reanalyze:${brandId}`,
    maxAttempts: 5,
  },
  /**
   * A person's cancel or retry of a whole check (lib/checks/operations.ts runCheckOperation): the
   * server action records it and answers at once; the work, seconds for thousands of captures,
   * runs here. One at a time per check, in the order they were asked.
   */
  check_operation: {
    payload: z.object({ operationId: z.uuid() }),
    queueName: (checkId: string) => `check:${checkId}`,
    // Idempotent (the transitions are guarded); retries only recover a crash or a lost connection.
    maxAttempts: 5,
  },
  /** A first run's suggested brand, competitors and questions: one provider call (lib/setup/suggestions.ts). */
  setup_suggestions: {
    payload: z.object({ suggestionId: z.uuid() }),
    jobKey: (p: { suggestionId: string }) => `setup:${p.suggestionId}`,
    // The call is made once (its outcome is recorded either way); retries only recover a crash.
    maxAttempts: 3,
  },
  /** Sends one alert delivery to its channel (lib/alerts/deliveries.ts runDelivery). */
  deliver_alert: {
    payload: z.object({ deliveryId: z.uuid() }),
    // One waiting job per delivery; a retry replaces it (the running one gives up its key).
    jobKey: (p: { deliveryId: string }) => `deliver_alert:${p.deliveryId}`,
    // The delivery's attempts follow the app's policy (ALERTS_MAX_ATTEMPTS, re-enqueued with
    // run_at); graphile-worker's retries only cover a worker that died mid-send.
    maxAttempts: 5,
  },
  /** Monday 08:00 UTC: each workspace's weekly digest to its email channels (lib/alerts/digest.ts). */
  alert_digest: { payload: cronPayload, cron: "0 8 * * 1", backfill: "week" },
  /** Hourly housekeeping (lib/jobs/retention.ts). */
  retention: { payload: cronPayload, cron: "17 * * * *" },
  /** Starts the checks of due schedules (lib/schedules/run-due.ts). */
  schedules: { payload: cronPayload, cron: "* * * * *" },
  /**
   * Evaluates a workspace's alert rules (lib/alerts/evaluate.ts). `reason` picks the kinds: a
   * finished check the answer-based ones and the budget, the daily pass all, the minutely watch
   * breakers and the budget. One waiting job per workspace and reason.
   */
  evaluate_alerts: {
    payload: z.object({ workspaceId: z.uuid(), reason: z.enum(ALERT_REASONS) }),
    jobKey: (p: { workspaceId: string; reason: AlertReason }) => `alerts:${p.workspaceId}:${p.reason}`,
    maxAttempts: 3,
  },
  /** Daily: every workspace with alert rules gets a full evaluation. */
  alerts_daily: { payload: cronPayload, cron: "7 6 * * *", backfill: "day" },
  /** Every minute: breakers open too long and budget thresholds. */
  alerts_watch: { payload: cronPayload, cron: "* * * * *" },
  /**
   * Site readiness of a workspace's own domains: robots.txt, llms.txt, the most-cited own pages
   * per crawler user agent (lib/traffic/readiness-check.ts). One waiting job per workspace.
   */
  site_readiness: {
    payload: z.object({ workspaceId: z.uuid() }),
    jobKey: (p: { workspaceId: string }) => `readiness:${p.workspaceId}`,
    // One run at a time per workspace: a check asked while one runs (its key then moves to the new
    // job) waits for it, so the card says "checking" until both have ended.
    queueName: (workspaceId: string) => `readiness:${workspaceId}`,
    // Idempotent (a run replaces the stored result); retries only recover a crash.
    maxAttempts: 3,
  },
  /** Daily 05:23 UTC: a site readiness check for every workspace with own domains. */
  readiness_daily: { payload: cronPayload, cron: "23 5 * * *", backfill: "day" },
} as const;

export type JobName = keyof typeof jobCatalog;
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalog)[N]["payload"]>;
