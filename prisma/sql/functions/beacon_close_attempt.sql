-- Ends an open attempt (once) and returns what its call settles in the ledgers: its reservation,
-- released, and what it is charged, its cost up to that reservation (beacon_attempt_charge; the
-- rest is kept as its "costOverrunMicros"); no row when it was already closed (transition.ts
-- closeAttempt). An attempt that ends failed or unknown is
-- counted in its capture's retry budget (captures."spentAttempts", "unknownAttempts") by the
-- same statement, and one whose paid answer could not be stored (reason result_not_stored)
-- marks it "paidAnswerLost": the retry policy and the admin retry's refusal read the capture
-- row, which retention never deletes (it deletes ended attempts). Every transition that closes
-- an attempt has locked the capture first.
CREATE OR REPLACE FUNCTION public.beacon_close_attempt(run_token uuid, outcome "AttemptOutcome", reason text, error_class "ErrorClass", http_status integer, request_id text, input_tokens integer, output_tokens integer, reasoning_tokens integer, cached_tokens integer, search_calls integer, cost_micros bigint, cost_is_estimate boolean, latency_ms integer)
 RETURNS TABLE("workspaceId" uuid, "connectionId" uuid, reserved bigint, period date, charged bigint)
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN QUERY
  WITH open AS (
    SELECT a.id, a."captureId", a."reservedMicros" AS reserved, coalesce(a."budgetPeriod", beacon_month()) AS period,
           (SELECT c."connectionId" FROM captures c WHERE c.id = a."captureId") AS "connectionId"
    FROM attempts a WHERE a."runToken" = run_token AND a.outcome IS NULL FOR UPDATE
  ), closed AS (
    UPDATE attempts a SET
      outcome = beacon_close_attempt.outcome, reason = beacon_close_attempt.reason, "errorClass" = error_class, "httpStatus" = http_status,
      "providerRequestId" = request_id, "inputTokens" = input_tokens, "outputTokens" = output_tokens, "reasoningTokens" = reasoning_tokens,
      "cachedTokens" = cached_tokens, "searchCalls" = search_calls, "costMicros" = beacon_attempt_charge(cost_micros, open.reserved),
      "costOverrunMicros" = cost_micros - beacon_attempt_charge(cost_micros, open.reserved), "costIsEstimate" = cost_is_estimate,
      "latencyMs" = latency_ms, "endedAt" = clock_timestamp(), "reservedMicros" = 0, "budgetPeriod" = open.period
    FROM open WHERE a.id = open.id
    RETURNING a."workspaceId", a."captureId", open."connectionId", open.reserved, open.period, a."costMicros" AS charged
  ), spent AS (
    UPDATE captures c SET "spentAttempts" = c."spentAttempts" + 1,
      "unknownAttempts" = c."unknownAttempts" + CASE WHEN beacon_close_attempt.outcome = 'unknown' THEN 1 ELSE 0 END,
      "paidAnswerLost" = c."paidAnswerLost" OR beacon_close_attempt.reason IS NOT DISTINCT FROM 'result_not_stored'
    FROM closed WHERE c.id = closed."captureId" AND beacon_close_attempt.outcome IN ('failed', 'unknown')
  )
  SELECT closed."workspaceId", closed."connectionId", closed.reserved, closed.period, closed.charged FROM closed;
END $function$;
