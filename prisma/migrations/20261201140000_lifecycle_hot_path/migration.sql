-- The capture lifecycle's hot path in the database (issue 10): a claim and a successful result
-- each took ten to thirteen statements from the worker, one round trip each, and the worker's
-- CPU spent on them (the ORM's per-statement work and the socket writes) was what limited
-- throughput. The building blocks every transition shares are functions here, called one
-- statement each by lib/captures/lifecycle/*.ts; `beacon_claim` and `beacon_succeed` run a whole
-- claim and a whole success with them, in one statement.
--
-- `jobs` (jsonb) is the capture job's spec from lib/jobs/catalog.ts, passed by the caller so that
-- the catalog stays the one place it is defined: {"task", "maxAttempts", "keyPrefix",
-- "flagPrefix", "waiting": [capture statuses that have a job]}.

-- One capture job per waiting capture among `ids`, due `delay_ms` after now (lib/jobs/enqueue.ts
-- explains the priority: the capture's place in its workspace's queue for its connection).
CREATE FUNCTION beacon_enqueue_captures(ids UUID[], delay_ms DOUBLE PRECISION, jobs JSONB) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  waiting "CaptureStatus"[] := ARRAY(SELECT jsonb_array_elements_text(jobs->'waiting'))::"CaptureStatus"[];
  added INTEGER;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN 0; END IF;
  -- Each (workspace, connection) pair's queue length is read once (MATERIALIZED: the rows of a
  -- check inserted in this transaction have no statistics, and a per-row plan was cubic).
  WITH targets AS MATERIALIZED (
    SELECT c.id, c."workspaceId", c."connectionId", c.sample, c."createdAt" FROM captures c
    WHERE c.id = ANY(ids) AND c.status = ANY(waiting)
  ), pairs AS MATERIALIZED (
    SELECT "workspaceId", "connectionId", count(*)::int AS enqueued FROM targets GROUP BY 1, 2
  ), queues AS MATERIALIZED (
    SELECT p."workspaceId", p."connectionId",
           (SELECT count(*)::int FROM captures o WHERE o."connectionId" = p."connectionId" AND o."workspaceId" = p."workspaceId"
              AND o.status = ANY(waiting)) - p.enqueued AS ahead
    FROM pairs p
  )
  SELECT count(*) INTO added FROM graphile_worker.add_jobs(ARRAY(
    SELECT ROW(jobs->>'task', json_build_object('captureId', t.id), NULL, now() + make_interval(secs => delay_ms / 1000),
               (jobs->>'maxAttempts')::int, (jobs->>'keyPrefix') || t.id,
               LEAST(32767, q.ahead + row_number() OVER (PARTITION BY t."workspaceId", t."connectionId" ORDER BY t.sample, t."createdAt", t.id) - 1)::int,
               ARRAY[(jobs->>'flagPrefix') || t."connectionId"])::graphile_worker.job_spec
    FROM targets t JOIN queues q ON q."workspaceId" = t."workspaceId" AND q."connectionId" = t."connectionId"
    ORDER BY t.sample, t."createdAt", t.id));
  RETURN added;
END $$;

-- Slots of the connection were given back (lib/captures/lifecycle/transition.ts handOnSlots
-- explains the order and the nudge). Returns how many waiting captures were woken.
CREATE FUNCTION beacon_hand_on_slots(connection_id UUID, freed INTEGER, jobs JSONB) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  woken UUID[];
BEGIN
  WITH w AS (
    UPDATE captures c SET "nextAttemptAt" = now(), "updatedAt" = now()
    WHERE c.id IN (
      SELECT x.id FROM captures x
      WHERE x."connectionId" = connection_id AND x.status = 'postponed' AND x."waitingFor" = 'slot'
        AND x."cancelRequestedAt" IS NULL AND x."nextAttemptAt" > now()
      ORDER BY (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = x."connectionId" AND s."workspaceId" = x."workspaceId"), x."nextAttemptAt", x.id
      LIMIT freed FOR UPDATE SKIP LOCKED)
    RETURNING c.id
  )
  SELECT coalesce(array_agg(id), '{}') INTO woken FROM w;
  -- (At most freed + 1 free slots are counted: whether there were none before is all it asks.)
  IF cardinality(woken) < freed AND (
    SELECT count(*) FROM (
      SELECT 1 FROM connection_slots s JOIN provider_connections pc ON pc.id = s."connectionId"
      WHERE s."connectionId" = connection_id AND s."captureId" IS NULL AND s.slot < pc."maxConcurrency" LIMIT freed + 1) free) <= freed THEN
    PERFORM pg_notify('jobs:insert', json_build_object('count', freed - cardinality(woken))::text);
  END IF;
  PERFORM beacon_enqueue_captures(woken, 0, jobs);
  RETURN cardinality(woken);
END $$;

-- Captures waiting for budget in the workspace get their job now (transition.ts wakeBudgetWaiters
-- explains the shared lock).
CREATE FUNCTION beacon_wake_budget_waiters(workspace_id UUID, wake_limit INTEGER, jobs JSONB) RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  waiting UUID[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('budget-wait:' || workspace_id, 0));
  SELECT coalesce(array_agg(id), '{}') INTO waiting FROM (
    SELECT id FROM captures WHERE "workspaceId" = workspace_id AND status = 'postponed' AND "waitingFor" = 'budget'
    ORDER BY "nextAttemptAt", id LIMIT wake_limit) w;
  PERFORM beacon_enqueue_captures(waiting, 0, jobs);
  RETURN cardinality(waiting);
END $$;

-- Ends an open attempt (once) and returns what its call settles in the ledgers; no row when it
-- was already closed (transition.ts closeAttempt).
CREATE FUNCTION beacon_close_attempt(
  run_token UUID, outcome "AttemptOutcome", reason TEXT, error_class "ErrorClass", http_status INTEGER, request_id TEXT,
  input_tokens INTEGER, output_tokens INTEGER, reasoning_tokens INTEGER, cached_tokens INTEGER, search_calls INTEGER,
  cost_micros BIGINT, cost_is_estimate BOOLEAN, latency_ms INTEGER
) RETURNS TABLE ("workspaceId" UUID, "connectionId" UUID, reserved BIGINT, period DATE) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  WITH open AS (
    SELECT a.id, a."reservedMicros" AS reserved, coalesce(a."budgetPeriod", date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS period,
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
END $$;

-- Adds `amount` to this month's admission row (shard 0) of the workspace's budget or of its grant
-- on a connection, in column "reservedMicros" or "inFlightMicros", only if that column plus
-- charged, over all shards, stays within the limit (no limit: always). Returns the month, or
-- NULL when it did not fit. lib/billing/budget.ts explains why the other shards may be read from
-- the statement's snapshot.
CREATE FUNCTION beacon_budget_add(workspace_id UUID, in_flight BOOLEAN, amount BIGINT) RETURNS DATE LANGUAGE plpgsql AS $$
DECLARE
  month DATE := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  cap BIGINT := (SELECT w."monthlyBudgetMicros" FROM workspaces w WHERE w.id = workspace_id);
  others BIGINT;
  added DATE;
BEGIN
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros" + CASE WHEN in_flight THEN s."inFlightMicros" ELSE s."reservedMicros" END), 0) INTO others
    FROM budget_periods s WHERE s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "updatedAt")
  SELECT workspace_id, month, 0, CASE WHEN in_flight THEN 0 ELSE amount END, CASE WHEN in_flight THEN amount ELSE 0 END, now()
  WHERE cap IS NULL OR others + amount <= cap
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE
    SET "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros", "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE cap IS NULL OR b."chargedMicros" + CASE WHEN in_flight THEN b."inFlightMicros" ELSE b."reservedMicros" END + others + amount <= cap
  RETURNING b."periodStart" INTO added;
  RETURN added;
END $$;

CREATE FUNCTION beacon_grant_add(connection_id UUID, workspace_id UUID, amount BIGINT) RETURNS DATE LANGUAGE plpgsql AS $$
DECLARE
  month DATE := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  cap BIGINT := (SELECT g."monthlySpendLimitMicros" FROM connection_grants g WHERE g."connectionId" = connection_id AND g."workspaceId" = workspace_id);
  others BIGINT;
  added DATE;
BEGIN
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

-- Would a call with this worst case fit now, in the workspace's budget and in its grant's limit on
-- the connection (read only, over all shards)? For a claim refused for budget, to look again
-- once the results in flight have committed (lib/captures/lifecycle/claim.ts).
CREATE FUNCTION beacon_call_would_fit(workspace_id UUID, connection_id UUID, worst BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
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
      GROUP BY g."monthlySpendLimitMicros"), true)
$$;

-- What transitions owe the ledgers, as deltas on one shard other than the admission row: holds
-- given back (budget "reservedMicros"), calls settled (worst case out of "inFlightMicros", cost
-- into "chargedMicros"), summed per workspace and month and per grant and month here. Arrays of
-- equal length; rows of several captures may share a month; rows without a key or with nothing
-- to add are left out.
CREATE FUNCTION beacon_settle_ledgers(
  to_shard SMALLINT,
  b_workspace UUID[], b_period DATE[], b_reserved BIGINT[], b_in_flight BIGINT[], b_charged BIGINT[],
  g_connection UUID[], g_workspace UUID[], g_period DATE[], g_in_flight BIGINT[], g_charged BIGINT[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.w, v.p, to_shard, -sum(v.r), -sum(v.f), sum(v.c), now()
  FROM unnest(b_workspace, b_period, b_reserved, b_in_flight, b_charged) AS v(w, p, r, f, c)
  WHERE v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.w, v.p HAVING sum(v.r) <> 0 OR sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.w, v.p
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE SET
    "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros",
    "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = b."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.k, v.w, v.p, to_shard, -sum(v.f), sum(v.c), now()
  FROM unnest(g_connection, g_workspace, g_period, g_in_flight, g_charged) AS v(k, w, p, f, c)
  WHERE v.k IS NOT NULL AND v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.k, v.w, v.p HAVING sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.k, v.w, v.p
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE SET
    "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = g."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
END $$;

-- Takes a free slot of the connection for the capture: 'taken', or 'full' (every slot taken or
-- being taken), or 'share' (the workspace holds its fair share while another workspace has
-- captures due on the connection). lib/captures/lifecycle/claim.ts explains the share.
CREATE FUNCTION beacon_take_slot(connection_id UUID, capture_id UUID, workspace_id UUID, waiting "CaptureStatus"[]) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  cap INTEGER := (SELECT pc."maxConcurrency" FROM provider_connections pc WHERE pc.id = connection_id);
  mine INTEGER;
  holders INTEGER;
  taken INTEGER;
BEGIN
  IF cap IS NULL THEN RETURN 'full'; END IF;
  -- Another workspace has captures due on the connection: two index ranges around this
  -- workspace (captures_connectionId_status_workspaceId_idx), not a walk over its own backlog.
  IF EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" < workspace_id AND w."cancelRequestedAt" IS NULL
         AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC'))
     OR EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" > workspace_id AND w."cancelRequestedAt" IS NULL
         AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC')) THEN
    SELECT count(*) FILTER (WHERE s."workspaceId" = workspace_id)::int, count(DISTINCT s."workspaceId") FILTER (WHERE s."workspaceId" <> workspace_id)::int
    INTO mine, holders
    FROM connection_slots s WHERE s."connectionId" = connection_id AND s."captureId" IS NOT NULL;
    -- The cap divided by the workspaces that hold slots, counting this one and, when only this
    -- one holds any, the one waiting.
    IF mine >= greatest(1, ceil(cap::numeric / (1 + greatest(1, holders)))) THEN RETURN 'share'; END IF;
  END IF;
  UPDATE connection_slots s SET "captureId" = capture_id, "workspaceId" = workspace_id, "takenAt" = now()
  WHERE (s."connectionId", s.slot) = (
    SELECT f."connectionId", f.slot FROM connection_slots f
    WHERE f."connectionId" = connection_id AND f."captureId" IS NULL AND f.slot < cap
    ORDER BY f.slot LIMIT 1 FOR UPDATE OF f SKIP LOCKED);
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN CASE WHEN taken > 0 THEN 'taken' ELSE 'full' END;
END $$;

-- The free slots of a connection, found without walking the taken ones.
CREATE INDEX "connection_slots_free_idx" ON "connection_slots" ("connectionId", "slot") WHERE "captureId" IS NULL;

-- Transition `claim` (waiting -> running) in one statement (lib/captures/lifecycle/claim.ts has
-- the why of each step and handles the refusals): the capture locked and the breaker read; a
-- slot; the capture running with the run token; its attempt opened; the check started on its
-- first claim; the call's worst case reserved in the budget and the grant, last. A refusal for
-- budget undoes everything back to the slot (the block's subtransaction). Returns one row:
-- kind 'claimed' (with the attempt number), 'not_runnable', 'breaker_open' (with the delay),
-- 'full' or 'share' (no slot; nothing written), 'no_budget' (nothing written); and the capture's workspace.
CREATE FUNCTION beacon_claim(
  capture_id UUID, connection_id UUID, model TEXT, run_token UUID, worker_id TEXT, probe_token UUID,
  worst_micros BIGINT, breaker_open_seconds INTEGER, waiting "CaptureStatus"[]
) RETURNS TABLE (kind TEXT, "attemptNumber" INTEGER, "delayMs" DOUBLE PRECISION, "workspaceId" UUID) LANGUAGE plpgsql AS $$
DECLARE
  cap RECORD;
  slot TEXT;
  attempt_number INTEGER;
BEGIN
  SELECT c.status, c."cancelRequestedAt" IS NOT NULL AS cancel_requested, c."checkId" AS check_id, c."workspaceId" AS workspace_id,
         b.status::text AS breaker_status, b."forcedStatus"::text AS forced_status, b."probeToken" AS breaker_probe,
         (extract(epoch FROM b."openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS open_for_ms
  INTO cap
  FROM captures c LEFT JOIN breaker_states b ON b."connectionId" = beacon_claim.connection_id AND b.model = beacon_claim.model
  WHERE c.id = capture_id
  FOR UPDATE OF c;
  -- A waiting capture with a cancel request is an impossible state; the repair pass ends it.
  IF NOT FOUND OR NOT (cap.status = ANY(waiting)) OR cap.cancel_requested THEN
    RETURN QUERY SELECT 'not_runnable', NULL::int, NULL::float8, NULL::uuid; RETURN;
  END IF;
  IF cap.breaker_status IS NOT NULL AND (cap.forced_status = 'open' OR (cap.forced_status IS NULL AND cap.breaker_status <> 'closed'
      AND NOT (probe_token IS NOT NULL AND cap.breaker_probe IS NOT DISTINCT FROM probe_token))) THEN
    RETURN QUERY SELECT 'breaker_open', NULL::int,
      greatest(1000, CASE WHEN cap.open_for_ms > 0 THEN cap.open_for_ms ELSE breaker_open_seconds * 1000.0 END)::float8, cap.workspace_id;
    RETURN;
  END IF;
  BEGIN
    slot := beacon_take_slot(connection_id, capture_id, cap.workspace_id, waiting);
    IF slot <> 'taken' THEN
      RETURN QUERY SELECT slot, NULL::int, NULL::float8, cap.workspace_id; RETURN;
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
    RETURN QUERY SELECT 'no_budget', NULL::int, NULL::float8, cap.workspace_id; RETURN;
  END;
  RETURN QUERY SELECT 'claimed', attempt_number, NULL::float8, cap.workspace_id;
END $$;

-- A call's outcome counted by its connection's breaker for the model while it is closed (and not
-- forced): appended to the window of the last `window_size` outcomes and to the counters, in one
-- statement. Returns the window, or NULL when the breaker is not closed or has no row yet (the
-- caller then takes lib/breaker/breaker.ts's locked path).
CREATE FUNCTION beacon_breaker_count(connection_id UUID, model TEXT, failed BOOLEAN, slow BOOLEAN, window_size INTEGER) RETURNS BOOLEAN[] LANGUAGE sql AS $$
  UPDATE breaker_states SET
    "recentFailures" = (array_append("recentFailures", failed))[greatest(1, coalesce(array_length("recentFailures", 1), 0) + 2 - window_size):],
    "successCount" = "successCount" + (NOT failed)::int,
    "failureCount" = "failureCount" + failed::int,
    "slowCallCount" = "slowCallCount" + slow::int,
    "updatedAt" = now()
  WHERE "connectionId" = beacon_breaker_count.connection_id AND breaker_states.model = beacon_breaker_count.model AND status = 'closed' AND "forcedStatus" IS NULL
  RETURNING "recentFailures"
$$;

-- Transition `succeed` (running -> succeeded, or cancelled when a cancel request arrived while
-- the answer was finishing: the answer is kept) in one statement (lib/captures/lifecycle/results.ts):
-- the capture's answer and cost, its attempt closed, its hold released, its analysis rows,
-- the slot handed on, the rollups, the ledgers and the captures waiting for budget, in the lock
-- order of lib/captures/lifecycle/transition.ts. No row when the capture no longer carries the
-- run token (nothing is written). `attempt` holds the attempt's facts (usage, request id);
-- mentions, citations and search queries are JSON arrays of rows. `breaker` ({model, failed,
-- slow, windowSize}, or NULL) counts the call in its breaker, last (beacon_breaker_count): the
-- row then returns the breaker's window, NULL when the breaker was not closed.
CREATE FUNCTION beacon_succeed(
  capture_id UUID, run_token UUID, answer TEXT, cost_micros BIGINT, latency_ms INTEGER, analysis_truncated BOOLEAN,
  attempt JSONB, mentions JSONB, citations JSONB, search_queries JSONB, to_shard SMALLINT, wake_limit INTEGER, jobs JSONB, breaker JSONB
) RETURNS TABLE (status TEXT, "checkId" UUID, "workspaceId" UUID, "breakerWindow" BOOLEAN[]) LANGUAGE plpgsql AS $$
DECLARE
  prior RECORD;
  next_status "CaptureStatus";
  closed RECORD;
  released BIGINT := 0;
BEGIN
  -- The guard of TRANSITIONS.succeed (lib/captures/states.ts): running, with this run token.
  SELECT c.status, c."runToken", c."cancelRequestedAt" IS NOT NULL AS cancel_requested, c."checkId" AS check_id,
         c."workspaceId" AS workspace_id, c."connectionId" AS connection_id, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period
  INTO prior FROM captures c WHERE c.id = capture_id FOR UPDATE;
  IF NOT FOUND OR prior.status <> 'running' OR prior."runToken" IS DISTINCT FROM run_token THEN RETURN; END IF;
  next_status := CASE WHEN prior.cancel_requested THEN 'cancelled' ELSE 'succeeded' END;
  UPDATE captures c SET status = next_status, "answerText" = answer, "answerIsPartial" = false, "answerUpdatedAt" = now(),
    "costMicros" = cost_micros, "latencyMs" = latency_ms,
    "lastError" = CASE WHEN prior.cancel_requested THEN 'Cancelled by user (the answer had arrived; kept in full)' END,
    "lastErrorClass" = NULL, "finishedAt" = now(), "analyzedAt" = now(), "analysisTruncated" = analysis_truncated,
    -- It ended: its hold is given back (below, in the ledgers).
    "reservedMicros" = 0, "updatedAt" = now()
  WHERE c.id = capture_id;
  -- Leaving running gave the slot back (trigger): ordered against claims waiting for one (handOnSlots).
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('slot-wait:' || prior.connection_id, 0));
  SELECT * INTO closed FROM beacon_close_attempt(run_token, 'succeeded', NULL, NULL, NULL, attempt->>'requestId',
    (attempt->>'inputTokens')::int, (attempt->>'outputTokens')::int, (attempt->>'reasoningTokens')::int,
    (attempt->>'cachedTokens')::int, (attempt->>'searchCalls')::int, cost_micros, false, latency_ms);
  IF next_status = 'succeeded' THEN
    INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", "competitorId", name, mentioned, count, position, sentiment)
    SELECT prior.workspace_id, capture_id, m.kind, m."brandId", m."competitorId", m.name, m.mentioned, m.count, m.position, m.sentiment
    FROM jsonb_to_recordset(mentions) AS m(kind "EntityKind", "brandId" UUID, "competitorId" UUID, name TEXT, mentioned BOOLEAN, count INTEGER, position INTEGER, sentiment "Sentiment");
    INSERT INTO citations ("workspaceId", "captureId", url, title, domain, "isOwnDomain", "citedInText", position)
    SELECT prior.workspace_id, capture_id, x.url, x.title, x.domain, x."isOwnDomain", x."citedInText", x.position
    FROM jsonb_to_recordset(citations) AS x(url TEXT, title TEXT, domain TEXT, "isOwnDomain" BOOLEAN, "citedInText" BOOLEAN, position INTEGER);
    INSERT INTO search_queries ("workspaceId", "captureId", query, position)
    SELECT prior.workspace_id, capture_id, q.query, q.position
    FROM jsonb_to_recordset(search_queries) AS q(query TEXT, position INTEGER);
  END IF;
  PERFORM beacon_hand_on_slots(prior.connection_id, 1, jobs);
  IF next_status = 'succeeded' THEN PERFORM beacon_rollup_captures(ARRAY[capture_id], 1); END IF;
  IF prior.hold > 0 AND prior.hold_period IS NOT NULL THEN released := prior.hold; END IF;
  IF closed."workspaceId" IS NOT NULL OR released > 0 THEN
    PERFORM beacon_settle_ledgers(to_shard,
      ARRAY[prior.workspace_id, closed."workspaceId"], ARRAY[prior.hold_period, closed.period], ARRAY[released, 0], ARRAY[0, closed.reserved], ARRAY[0, cost_micros],
      ARRAY[closed."connectionId"], ARRAY[closed."workspaceId"], ARRAY[closed.period], ARRAY[closed.reserved], ARRAY[cost_micros]);
  END IF;
  -- Money was freed (the hold, or the call's worst case beyond its cost): a capture waiting for budget may run now.
  IF released > 0 OR coalesce(closed.reserved, 0) > cost_micros THEN PERFORM beacon_wake_budget_waiters(prior.workspace_id, wake_limit, jobs); END IF;
  -- The breaker's row is shared by every call of the connection's model: last, held only to the commit.
  RETURN QUERY SELECT next_status::text, prior.check_id, prior.workspace_id,
    CASE WHEN breaker IS NOT NULL THEN beacon_breaker_count(prior.connection_id, breaker->>'model', (breaker->>'failed')::boolean,
                                                            (breaker->>'slow')::boolean, (breaker->>'windowSize')::int) END;
END $$;
