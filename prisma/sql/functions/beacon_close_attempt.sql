-- Ends an open attempt (once) and returns what its call settles in the ledgers; no row when it
-- was already closed (transition.ts closeAttempt).
CREATE OR REPLACE FUNCTION public.beacon_close_attempt(run_token uuid, outcome "AttemptOutcome", reason text, error_class "ErrorClass", http_status integer, request_id text, input_tokens integer, output_tokens integer, reasoning_tokens integer, cached_tokens integer, search_calls integer, cost_micros bigint, cost_is_estimate boolean, latency_ms integer)
 RETURNS TABLE("workspaceId" uuid, "connectionId" uuid, reserved bigint, period date)
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN QUERY
  WITH open AS (
    SELECT a.id, a."reservedMicros" AS reserved, coalesce(a."budgetPeriod", beacon_month()) AS period,
           (SELECT c."connectionId" FROM captures c WHERE c.id = a."captureId") AS "connectionId"
    FROM attempts a WHERE a."runToken" = run_token AND a.outcome IS NULL FOR UPDATE
  )
  UPDATE attempts a SET
    outcome = beacon_close_attempt.outcome, reason = beacon_close_attempt.reason, "errorClass" = error_class, "httpStatus" = http_status,
    "providerRequestId" = request_id, "inputTokens" = input_tokens, "outputTokens" = output_tokens, "reasoningTokens" = reasoning_tokens,
    "cachedTokens" = cached_tokens, "searchCalls" = search_calls, "costMicros" = cost_micros, "costIsEstimate" = cost_is_estimate,
    "latencyMs" = latency_ms, "endedAt" = clock_timestamp(), "reservedMicros" = 0, "budgetPeriod" = open.period
  FROM open WHERE a.id = open.id
  RETURNING a."workspaceId", open."connectionId", open.reserved, open.period;
END $function$;
