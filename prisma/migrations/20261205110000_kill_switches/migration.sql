-- Revoke, disable and the model allowlist are kill switches (issue 17 defect 2). An operator's
-- revoke, a disabled connection or a model taken off the allowlist used to stop only new checks:
-- captures already waiting, and admin retries, still called the connection (the claim checked
-- none of it, and beacon_grant_add read a missing grant as "no limit"). Now the claim itself
-- refuses such a capture: transition `refuse` (waiting -> failed, lib/captures/states.ts), with
-- the reason shown in the UI, no attempt, no slot, nothing reserved, its hold given back.

-- Why the workspace may not call the connection with the model now, or NULL when it may: the
-- connection enabled, granted to the workspace (a grant row; a revoke deletes it) or to every
-- workspace, the model on its allowlist (what lib/connections/connections.ts assertUsable asks
-- of new work). The one definition the claim and the admin retry (lib/captures/lifecycle/admin.ts
-- retryRefusals) both use; its sentences are the capture's error and the retry's refusal.
CREATE FUNCTION beacon_access_refusal(connection_id UUID, workspace_id UUID, model TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN pc.id IS NULL THEN 'The connection of this capture no longer exists.'
    WHEN NOT pc.enabled THEN format('The operator disabled %s.', pc.name)
    WHEN NOT pc."grantedToAll" AND NOT EXISTS (
        SELECT 1 FROM connection_grants g WHERE g."connectionId" = pc.id AND g."workspaceId" = beacon_access_refusal.workspace_id)
      THEN format('The operator revoked this workspace''s access to %s.', pc.name)
    WHEN NOT (beacon_access_refusal.model = ANY(pc.models)) THEN format('The model "%s" is no longer allowed on %s.', beacon_access_refusal.model, pc.name)
  END
  FROM (SELECT 1) one LEFT JOIN provider_connections pc ON pc.id = beacon_access_refusal.connection_id
$$;

-- A grant's spend: a workspace without a grant row on the connection may spend nothing on it,
-- unless the connection is granted to every workspace (then without a limit, as before). A
-- missing row used to mean "no limit", so a revoked workspace spent without one.
CREATE OR REPLACE FUNCTION beacon_grant_add(connection_id UUID, workspace_id UUID, amount BIGINT) RETURNS DATE LANGUAGE plpgsql AS $$
DECLARE
  month DATE := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  granted BOOLEAN;
  cap BIGINT;
  others BIGINT;
  added DATE;
BEGIN
  SELECT true, g."monthlySpendLimitMicros" INTO granted, cap FROM connection_grants g WHERE g."connectionId" = connection_id AND g."workspaceId" = workspace_id;
  IF granted IS NULL AND NOT coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = connection_id), false) THEN
    RETURN NULL;
  END IF;
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros" + s."inFlightMicros"), 0) INTO others
    FROM grant_spend_periods s WHERE s."connectionId" = connection_id AND s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "updatedAt")
  SELECT connection_id, workspace_id, month, 0, amount, now()
  WHERE cap IS NULL OR others + amount <= cap
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE
    SET "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE cap IS NULL OR g."chargedMicros" + g."inFlightMicros" + others + amount <= cap
  RETURNING g."periodStart" INTO added;
  RETURN added;
END $$;

-- The same rule read only: no call fits on a connection the workspace holds no grant of (and
-- that is not granted to every workspace).
CREATE OR REPLACE FUNCTION beacon_call_would_fit(workspace_id UUID, connection_id UUID, worst BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
  SELECT coalesce((
      SELECT w."monthlyBudgetMicros" IS NULL OR coalesce(sum(s."chargedMicros" + s."inFlightMicros"), 0) + worst <= w."monthlyBudgetMicros"
      FROM workspaces w
      LEFT JOIN budget_periods s ON s."workspaceId" = w.id AND s."periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date
      WHERE w.id = beacon_call_would_fit.workspace_id
      GROUP BY w."monthlyBudgetMicros"), true)
    AND coalesce((
      SELECT g."monthlySpendLimitMicros" IS NULL OR coalesce(sum(s."chargedMicros" + s."inFlightMicros"), 0) + worst <= g."monthlySpendLimitMicros"
      FROM connection_grants g
      LEFT JOIN grant_spend_periods s ON s."connectionId" = g."connectionId" AND s."workspaceId" = g."workspaceId"
        AND s."periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date
      WHERE g."connectionId" = beacon_call_would_fit.connection_id AND g."workspaceId" = beacon_call_would_fit.workspace_id
      GROUP BY g."monthlySpendLimitMicros"),
      coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = beacon_call_would_fit.connection_id), false))
$$;

-- The claim gains the refusal (new parameters and result columns, so the old signature goes).
DROP FUNCTION beacon_claim(UUID, UUID, TEXT, UUID, TEXT, UUID, BIGINT, INTEGER, "CaptureStatus"[]);

-- Transition `claim` (waiting -> running) in one statement (lib/captures/lifecycle/claim.ts has
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
-- advisory lock `connection-access:<connection>`, taken shared here and exclusively by every
-- operator change of who may call the connection (lib/connections/connections.ts), so a claim
-- either commits before such a change commits, or waits for it and sees it: no claim that
-- commits after a revoke, a disable or a narrowed allowlist has read the state before it.
CREATE FUNCTION beacon_claim(
  capture_id UUID, connection_id UUID, model TEXT, run_token UUID, worker_id TEXT, probe_token UUID,
  worst_micros BIGINT, breaker_open_seconds INTEGER, waiting "CaptureStatus"[], to_shard SMALLINT, wake_limit INTEGER, jobs JSONB
) RETURNS TABLE (kind TEXT, "attemptNumber" INTEGER, "delayMs" DOUBLE PRECISION, "workspaceId" UUID, "checkId" UUID, reason TEXT) LANGUAGE plpgsql AS $$
DECLARE
  cap RECORD;
  slot TEXT;
  attempt_number INTEGER;
  refusal TEXT;
BEGIN
  SELECT c.status, c."cancelRequestedAt" IS NOT NULL AS cancel_requested, c."checkId" AS check_id, c."workspaceId" AS workspace_id,
         c."connectionId" AS capture_connection, c.model AS capture_model, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period,
         b.status::text AS breaker_status, b."forcedStatus"::text AS forced_status, b."probeToken" AS breaker_probe,
         (extract(epoch FROM b."openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS open_for_ms
  INTO cap
  FROM captures c LEFT JOIN breaker_states b ON b."connectionId" = beacon_claim.connection_id AND b.model = beacon_claim.model
  WHERE c.id = capture_id
  FOR UPDATE OF c;
  -- A waiting capture with a cancel request is an impossible state; the repair pass ends it.
  IF NOT FOUND OR NOT (cap.status = ANY(waiting)) OR cap.cancel_requested THEN
    RETURN QUERY SELECT 'not_runnable', NULL::int, NULL::float8, NULL::uuid, NULL::uuid, NULL::text; RETURN;
  END IF;
  -- The kill switches, before anything is taken (the breaker's wait included: a revoked capture fails now).
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('connection-access:' || cap.capture_connection, 0));
  refusal := beacon_access_refusal(cap.capture_connection, cap.workspace_id, cap.capture_model);
  IF refusal IS NOT NULL THEN
    UPDATE captures c SET status = 'failed', "lastError" = refusal, "lastErrorClass" = 'permanent', "finishedAt" = now(), "runToken" = NULL,
      "nextAttemptAt" = NULL, "waitingFor" = NULL, "reservedMicros" = 0, "updatedAt" = now()
    WHERE c.id = capture_id;
    INSERT INTO events ("workspaceId", "checkId", "captureId", kind, data)
    VALUES (cap.workspace_id, cap.check_id, capture_id, 'capture_refused', jsonb_build_object('reason', refusal));
    IF cap.hold > 0 AND cap.hold_period IS NOT NULL THEN
      PERFORM beacon_settle_ledgers(to_shard,
        ARRAY[cap.workspace_id], ARRAY[cap.hold_period], ARRAY[cap.hold], ARRAY[0::bigint], ARRAY[0::bigint],
        '{}'::uuid[], '{}'::uuid[], '{}'::date[], '{}'::bigint[], '{}'::bigint[]);
      PERFORM beacon_wake_budget_waiters(cap.workspace_id, wake_limit, jobs);
    END IF;
    RETURN QUERY SELECT 'refused', NULL::int, NULL::float8, cap.workspace_id, cap.check_id, refusal; RETURN;
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
           date_trunc('month', now() AT TIME ZONE 'UTC')::date
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
END $$;
