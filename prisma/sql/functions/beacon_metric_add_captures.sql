-- Adds deltas to this transaction's shard of the capture counts.
CREATE OR REPLACE FUNCTION public.beacon_metric_add_captures(d_created bigint, d_accepted bigint, d_queued bigint, d_retry_wait bigint, d_postponed bigint, d_waiting_for_budget bigint, d_running bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_capture_counts" AS m ("shard", "created", "accepted", "queued", "retryWait", "postponed", "waitingForBudget", "running")
  VALUES (beacon_metric_shard(), d_created, d_accepted, d_queued, d_retry_wait, d_postponed, d_waiting_for_budget, d_running)
  ON CONFLICT ("shard") DO UPDATE SET
    "created" = m."created" + EXCLUDED."created",
    "accepted" = m."accepted" + EXCLUDED."accepted",
    "queued" = m."queued" + EXCLUDED."queued",
    "retryWait" = m."retryWait" + EXCLUDED."retryWait",
    "postponed" = m."postponed" + EXCLUDED."postponed",
    "waitingForBudget" = m."waitingForBudget" + EXCLUDED."waitingForBudget",
    "running" = m."running" + EXCLUDED."running"
$function$;
