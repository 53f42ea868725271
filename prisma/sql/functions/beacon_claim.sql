-- Transition `claim` (waiting -> running) in one statement (lib/lifecycle/claim.ts has
-- the why of each step and handles the refusals): the capture locked; whether its workspace may
-- still call its connection with its model (else transition `refuse`, below); the breaker read; a
-- slot; the capture running with the run token; its attempt opened; the check started on its
-- first claim; the call's worst case reserved in the budget and the grant, last. A refusal for
-- budget undoes everything back to the slot (the block's subtransaction). Returns one row:
-- kind 'claimed' (with the attempt number), 'not_runnable', 'refused' (with the reason and the
-- check: the capture failed), 'breaker_open' (with the delay), 'full' or 'share' (no slot;
-- nothing written), 'no_budget' (nothing written); and the capture's workspace.
--
-- Transition `refuse` (waiting -> failed; TRANSITIONS.refuse): the operator disabled the
-- connection, revoked the workspace's grant or took the model off the allowlist. The capture
-- fails with beacon_access_refusal's reason, permanently (no attempt, no slot, nothing reserved);
-- its hold goes back to its month (on shard `to_shard`) and captures waiting for budget are
-- woken, as every ended capture does; event `capture_refused`. The access is read under the
-- advisory lock `beacon_connection_access_key(connection)`, taken shared here and exclusively by every
-- operator change of who may call the connection (lib/connections/connections.ts), so a claim
-- either commits before such a change commits, or waits for it and sees it: no claim that
-- commits after a revoke, a disable or a narrowed allowlist has read the state before it.
--
-- Kind 'stale' (nothing written): the connection was edited (its "updatedAt", in epoch
-- milliseconds, is no longer `connection_version`, read by the worker with the settings it would call with and reserve by),
-- read under the same lock, which every edit also takes exclusively. The worker reads the
-- connection again and claims again, so a call whose claim commits after an edit is made,
-- reserved and charged with the edited prices, limits and settings.
CREATE OR REPLACE FUNCTION public.beacon_claim(capture_id uuid, connection_id uuid, model text, run_token uuid, worker_id text, probe_token uuid, worst_micros bigint, breaker_open_seconds integer, waiting "CaptureStatus"[], to_shard smallint, wake_limit integer, jobs jsonb, connection_version bigint)
 RETURNS TABLE(kind text, "attemptNumber" integer, "delayMs" double precision, "workspaceId" uuid, "checkId" uuid, reason text)
 LANGUAGE plpgsql
AS $function$
DECLARE
  cap RECORD;
  slot TEXT;
  attempt_number INTEGER;
  refusal TEXT;
BEGIN
  SELECT c.status, c."cancelRequestedAt" IS NOT NULL AS cancel_requested, ch."cancelRequestedAt" IS NOT NULL AS check_cancel_requested, c."checkId" AS check_id, c."workspaceId" AS workspace_id,
         c."connectionId" AS capture_connection, c.model AS capture_model, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period,
         b.status::text AS breaker_status, b."forcedStatus"::text AS forced_status, b."probeToken" AS breaker_probe,
         (extract(epoch FROM b."openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS open_for_ms
  INTO cap
  FROM captures c JOIN checks ch ON ch.id = c."checkId"
  LEFT JOIN breaker_states b ON b."connectionId" = beacon_claim.connection_id AND b.model = beacon_claim.model
  WHERE c.id = capture_id
  FOR UPDATE OF c;
  -- A waiting capture with a cancel request is an impossible state; the repair pass ends it. One
  -- whose check carries a cancel request waits for the check's cancel operation to end it
  -- (lib/checks/operations.ts): nothing starts once the cancel was asked for.
  IF NOT FOUND OR NOT (cap.status = ANY(waiting)) OR cap.cancel_requested OR cap.check_cancel_requested THEN
    RETURN QUERY SELECT 'not_runnable', NULL::int, NULL::float8, NULL::uuid, NULL::uuid, NULL::text; RETURN;
  END IF;
  -- The kill switches, before anything is taken (the breaker's wait included: a revoked capture fails now).
  PERFORM pg_advisory_xact_lock_shared(beacon_connection_access_key(cap.capture_connection));
  refusal := beacon_access_refusal(cap.capture_connection, cap.workspace_id, cap.capture_model);
  IF refusal IS NOT NULL THEN
    UPDATE captures c SET status = 'failed', "lastError" = refusal, "lastErrorClass" = 'permanent', "finishedAt" = now(), "runToken" = NULL,
      "nextAttemptAt" = NULL, "waitingFor" = NULL, "reservedMicros" = 0, "updatedAt" = now()
    WHERE c.id = capture_id;
    INSERT INTO events ("workspaceId", "checkId", "captureId", kind, data)
    VALUES (cap.workspace_id, cap.check_id, capture_id, 'capture_refused', jsonb_build_object('reason', refusal));
    IF beacon_hold_released(cap.hold, cap.hold_period) > 0 THEN
      PERFORM beacon_settle_ledgers(to_shard,
        ARRAY[cap.workspace_id], ARRAY[cap.hold_period], ARRAY[cap.hold], ARRAY[0::bigint], ARRAY[0::bigint],
        '{}'::uuid[], '{}'::uuid[], '{}'::date[], '{}'::bigint[], '{}'::bigint[]);
      PERFORM beacon_wake_budget_waiters(cap.workspace_id, wake_limit, jobs);
    END IF;
    RETURN QUERY SELECT 'refused', NULL::int, NULL::float8, cap.workspace_id, cap.check_id, refusal; RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM provider_connections pc WHERE pc.id = cap.capture_connection AND (extract(epoch FROM pc."updatedAt") * 1000)::bigint = connection_version) THEN
    RETURN QUERY SELECT 'stale', NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
  END IF;
  IF cap.breaker_status IS NOT NULL AND (cap.forced_status = 'open' OR (cap.forced_status IS NULL AND cap.breaker_status <> 'closed'
      AND NOT (probe_token IS NOT NULL AND cap.breaker_probe IS NOT DISTINCT FROM probe_token))) THEN
    RETURN QUERY SELECT 'breaker_open', NULL::int,
      greatest(1000, CASE WHEN cap.open_for_ms > 0 THEN cap.open_for_ms ELSE breaker_open_seconds * 1000.0 END)::float8, cap.workspace_id, NULL::uuid, NULL::text;
    RETURN;
  END IF;
  BEGIN
    slot := beacon_take_slot(connection_id, capture_id, cap.workspace_id, waiting);
    IF slot <> 'taken' THEN
      RETURN QUERY SELECT slot, NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
    END IF;
    UPDATE captures c SET status = 'running', "runToken" = run_token, "attemptCount" = c."attemptCount" + 1,
      "startedAt" = coalesce(c."startedAt", now()), "nextAttemptAt" = NULL, "waitingFor" = NULL, "updatedAt" = now()
    WHERE c.id = capture_id;
    -- clock_timestamp(), not now() (the transaction's start): the call starts once the slot is ours.
    INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "reservedMicros", "budgetPeriod")
    SELECT gen_random_uuid(), c."workspaceId", c.id, c."attemptCount", run_token, worker_id, clock_timestamp(), worst_micros,
           beacon_month()
    FROM captures c WHERE c.id = capture_id
    RETURNING number INTO attempt_number;
    -- The check's row is written by its first claim only.
    UPDATE checks SET status = 'running', "updatedAt" = now() WHERE id = cap.check_id AND status = 'queued';
    -- The budget last: its admission rows are written by every claim of the workspace.
    IF beacon_budget_add(cap.workspace_id, true, worst_micros) IS NULL OR beacon_grant_add(connection_id, cap.workspace_id, worst_micros) IS NULL THEN
      RAISE EXCEPTION 'no budget' USING ERRCODE = 'BCN01';
    END IF;
  EXCEPTION WHEN SQLSTATE 'BCN01' THEN
    RETURN QUERY SELECT 'no_budget', NULL::int, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text; RETURN;
  END;
  RETURN QUERY SELECT 'claimed', attempt_number, NULL::float8, cap.workspace_id, NULL::uuid, NULL::text;
END $function$;
