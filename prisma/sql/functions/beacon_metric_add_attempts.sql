-- Adds deltas to this transaction's shard of a provider's attempt counts.
CREATE OR REPLACE FUNCTION public.beacon_metric_add_attempts(d_provider text, d_running bigint, d_succeeded bigint, d_failed bigint, d_unknown bigint, d_cancelled bigint, d_lease_expired bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "metric_attempt_counts" AS m ("provider", "shard", "running", "succeeded", "failed", "unknown", "cancelled", "leaseExpired")
  VALUES (d_provider, beacon_metric_shard(), d_running, d_succeeded, d_failed, d_unknown, d_cancelled, d_lease_expired)
  ON CONFLICT ("provider", "shard") DO UPDATE SET
    "running" = m."running" + EXCLUDED."running",
    "succeeded" = m."succeeded" + EXCLUDED."succeeded",
    "failed" = m."failed" + EXCLUDED."failed",
    "unknown" = m."unknown" + EXCLUDED."unknown",
    "cancelled" = m."cancelled" + EXCLUDED."cancelled",
    "leaseExpired" = m."leaseExpired" + EXCLUDED."leaseExpired"
$function$;
