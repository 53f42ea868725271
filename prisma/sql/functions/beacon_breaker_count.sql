-- A call's outcome counted by its connection's breaker for the model while it is closed (and not
-- forced): appended to the window of the last `window_size` outcomes and to the counters, in one
-- statement. Returns the window, or NULL when the breaker is not closed or has no row yet (the
-- caller then takes lib/breaker/breaker.ts's locked path).
CREATE OR REPLACE FUNCTION public.beacon_breaker_count(connection_id uuid, model text, failed boolean, slow boolean, window_size integer)
 RETURNS boolean[]
 LANGUAGE sql
AS $function$
  UPDATE breaker_states SET
    "recentFailures" = (array_append("recentFailures", failed))[greatest(1, coalesce(array_length("recentFailures", 1), 0) + 2 - window_size):],
    "successCount" = "successCount" + (NOT failed)::int,
    "failureCount" = "failureCount" + failed::int,
    "slowCallCount" = "slowCallCount" + slow::int,
    "updatedAt" = now()
  WHERE "connectionId" = beacon_breaker_count.connection_id AND breaker_states.model = beacon_breaker_count.model AND status = 'closed' AND "forcedStatus" IS NULL
  RETURNING "recentFailures"
$function$;
