-- Transition `succeed` (running -> succeeded) in one statement (lib/lifecycle/results.ts),
-- in the lock order of lib/lifecycle/transition.ts: the capture's answer and cost, its
-- attempt closed, its hold released (what was paid for is stored first, and nothing after it
-- depends on the brand's entities still existing); then its analysis rows, written only for the
-- brand's competitors that exist now (held FOR KEY SHARE, so none can go before the commit); the
-- slot handed on, the rollups, the ledgers, the captures waiting for budget. No row when the
-- capture no longer carries the run token (nothing is written).
--
-- A cancel request that arrived while the answer was finishing came too late: the answer was
-- paid for, so the capture ends `succeeded` and analysed, with a note and a `cancel_too_late` event.
--
-- `candidates` ([{key, name}]) are the untracked names the answer presents as options (competitor
-- discovery), computed with the mentions against the same entities and stored beside them
-- (capture_candidates, with the capture's finish time, provider and prompt), then counted in
-- rollup_candidates by beacon_rollup_captures.
--
-- `analysis_version` is the brand's analysis version the mentions were computed with, NULL when
-- there is no analysis (the answer is stored alone). The brand row is read FOR SHARE: an edit of
-- the brand (which locks it first) either committed before, and its new version is seen here, or
-- waits for this commit, and its re-analysis then sees this answer. An analysis older than the
-- brand's, or none, queues a re-analysis (`reanalysis_job`: {"task", "maxAttempts",
-- "queuePrefix"} from lib/jobs/catalog.ts), reusing a run that has not started.
--
-- The cost charged is at most the worst case reserved for the call (`attempt.reservedMicros`):
-- a provider that reported more usage than the limits allowed cannot push charged past the
-- budget; the excess is recorded on the attempt and in an `attempt_cost_overrun` event.
--
-- `breaker` ({model, failed, slow, windowSize}, or NULL) counts the call in its breaker, last
-- (beacon_breaker_count): the row then returns the breaker's window, NULL when the breaker was
-- not closed; the attempt records whether it was counted.
CREATE OR REPLACE FUNCTION public.beacon_succeed(capture_id uuid, run_token uuid, answer text, cost_micros bigint, latency_ms integer, analysis_truncated boolean, attempt jsonb, mentions jsonb, citations jsonb, search_queries jsonb, to_shard smallint, wake_limit integer, jobs jsonb, breaker jsonb, analysis_version integer, reanalysis_job jsonb, candidates jsonb)
 RETURNS TABLE(status text, "checkId" uuid, "workspaceId" uuid, "breakerWindow" boolean[])
 LANGUAGE plpgsql
AS $function$
DECLARE
  prior RECORD;
  closed RECORD;
  worst BIGINT;
  charged BIGINT;
  released BIGINT := 0;
  brand_version INTEGER;
  run_id UUID;
  counted BOOLEAN[];
  plan_mode TEXT;
BEGIN
  -- The guard of TRANSITIONS.succeed (lib/captures/states.ts, generated into beacon_transition_from):
  -- in one of its `from` statuses (running), with this run token.
  SELECT c.status, c."runToken", c."cancelRequestedAt" IS NOT NULL AS cancel_requested, c."checkId" AS check_id, c."brandId" AS brand_id,
         c."workspaceId" AS workspace_id, c."connectionId" AS connection_id, c."providerConfigId" AS provider_config_id, c."promptId" AS prompt_id, c."reservedMicros" AS hold, c."reservedPeriod" AS hold_period
  INTO prior FROM captures c WHERE c.id = capture_id FOR UPDATE;
  IF NOT FOUND OR NOT (prior.status = ANY(beacon_transition_from('succeed'))) OR prior."runToken" IS DISTINCT FROM run_token THEN RETURN; END IF;
  -- What the call is charged: its reserved worst case at most (as beacon_close_attempt charges its attempt, below).
  SELECT a."reservedMicros" INTO worst FROM attempts a WHERE a."runToken" = run_token AND a.outcome IS NULL;
  charged := beacon_attempt_charge(cost_micros, worst);
  UPDATE captures c SET status = 'succeeded', "answerText" = answer, "answerIsPartial" = false, "answerUpdatedAt" = now(),
    "costMicros" = charged, "latencyMs" = latency_ms,
    "lastError" = CASE WHEN prior.cancel_requested THEN 'Cancel requested after the answer had arrived: kept and analysed (it was paid for)' END,
    "lastErrorClass" = NULL, "finishedAt" = now(),
    "analyzedAt" = CASE WHEN analysis_version IS NOT NULL THEN now() END, "analysisVersion" = analysis_version,
    "analysisTruncated" = analysis_version IS NOT NULL AND analysis_truncated,
    -- It ended: its hold is given back (below, in the ledgers).
    "reservedMicros" = 0, "updatedAt" = now()
  WHERE c.id = capture_id;
  -- Leaving running gave the slot back (trigger): ordered against claims waiting for one (handOnSlots).
  PERFORM pg_advisory_xact_lock_shared(beacon_slot_wait_key(prior.connection_id));
  SELECT * INTO closed FROM beacon_close_attempt(run_token, 'succeeded', NULL, NULL, NULL, attempt->>'requestId',
    (attempt->>'inputTokens')::int, (attempt->>'outputTokens')::int, (attempt->>'reasoningTokens')::int,
    (attempt->>'cachedTokens')::int, (attempt->>'searchCalls')::int, cost_micros, false, latency_ms);
  IF cost_micros > charged THEN
    INSERT INTO events (id, "workspaceId", "checkId", "captureId", kind, data, "createdAt")
    VALUES (gen_random_uuid(), prior.workspace_id, prior.check_id, capture_id, 'attempt_cost_overrun',
            jsonb_build_object('runToken', run_token, 'reservedMicros', worst, 'actualMicros', cost_micros, 'chargedMicros', charged), now());
  END IF;
  IF prior.cancel_requested THEN
    INSERT INTO events (id, "workspaceId", "checkId", "captureId", kind, data, "createdAt")
    VALUES (gen_random_uuid(), prior.workspace_id, prior.check_id, capture_id, 'cancel_too_late', jsonb_build_object('runToken', run_token), now());
  END IF;

  -- The analysis, against the entities that exist now.
  SELECT b."analysisVersion" INTO brand_version FROM brands b WHERE b.id = prior.brand_id FOR SHARE;
  IF analysis_version IS NOT NULL THEN
    -- The competitors it names that still exist, held until the commit (a removal's delete
    -- waits for them; mentions have no foreign key to competitors); one removed during the call
    -- simply has no row, and the version says the analysis is stale.
    PERFORM 1 FROM competitors k
    WHERE k.id IN (SELECT (e->>'competitorId')::uuid FROM jsonb_array_elements(mentions) e) AND k."brandId" = prior.brand_id
    ORDER BY k.id FOR KEY SHARE;
    INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", "competitorId", name, mentioned, count, position, sentiment)
    SELECT prior.workspace_id, capture_id, m.kind, m."brandId", m."competitorId", m.name, m.mentioned, m.count, m.position, m.sentiment
    FROM jsonb_to_recordset(mentions) AS m(kind "EntityKind", "brandId" UUID, "competitorId" UUID, name TEXT, mentioned BOOLEAN, count INTEGER, position INTEGER, sentiment "Sentiment")
    WHERE (m."competitorId" IS NULL OR EXISTS (SELECT 1 FROM competitors k WHERE k.id = m."competitorId" AND k."brandId" = prior.brand_id))
      AND (m."brandId" IS NULL OR m."brandId" = prior.brand_id);
    INSERT INTO capture_candidates ("captureId", key, name, "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId")
    SELECT capture_id, x.key, x.name, prior.workspace_id, prior.brand_id, c."finishedAt", prior.provider_config_id, prior.prompt_id
    FROM jsonb_to_recordset(coalesce(candidates, '[]')) AS x(key TEXT, name TEXT), captures c WHERE c.id = capture_id
    ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO citations ("workspaceId", "captureId", url, title, domain, "isOwnDomain", "citedInText", position)
  SELECT prior.workspace_id, capture_id, x.url, x.title, x.domain, x."isOwnDomain", x."citedInText", x.position
  FROM jsonb_to_recordset(citations) AS x(url TEXT, title TEXT, domain TEXT, "isOwnDomain" BOOLEAN, "citedInText" BOOLEAN, position INTEGER);
  INSERT INTO search_queries ("workspaceId", "captureId", query, position)
  SELECT prior.workspace_id, capture_id, q.query, q.position
  FROM jsonb_to_recordset(search_queries) AS q(query TEXT, position INTEGER);
  -- Analysed with older inputs than the brand's now (an edit committed during the call), or not
  -- at all: a re-analysis will bring it up to date.
  IF analysis_version IS NULL OR analysis_version < brand_version THEN
    run_id := beacon_reanalysis_run(prior.workspace_id, prior.brand_id, reanalysis_job);
    UPDATE analysis_runs r SET total = r.total + 1 WHERE r.id = run_id;
  END IF;

  PERFORM beacon_hand_on_slots(prior.connection_id, 1, jobs);
  -- One capture: its rollup statements run on their generic plans. Planned with the values every
  -- time (the default mode chose custom plans here), planning them was about 16 of a success's 20
  -- ms; batch callers (lib/analytics/rollups.ts) force custom plans, which suit thousands of ids.
  plan_mode := current_setting('plan_cache_mode');
  PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  PERFORM beacon_rollup_captures(ARRAY[capture_id], 1);
  PERFORM set_config('plan_cache_mode', plan_mode, true);
  released := beacon_hold_released(prior.hold, prior.hold_period);
  IF closed."workspaceId" IS NOT NULL OR released > 0 THEN
    PERFORM beacon_settle_ledgers(to_shard,
      ARRAY[prior.workspace_id, closed."workspaceId"], ARRAY[prior.hold_period, closed.period], ARRAY[released, 0], ARRAY[0, closed.reserved], ARRAY[0, charged],
      ARRAY[closed."connectionId"], ARRAY[closed."workspaceId"], ARRAY[closed.period], ARRAY[closed.reserved], ARRAY[charged]);
  END IF;
  -- Money was freed (the hold, or the call's worst case beyond its cost): a capture waiting for budget may run now.
  IF released > 0 OR coalesce(closed.reserved, 0) > charged THEN PERFORM beacon_wake_budget_waiters(prior.workspace_id, wake_limit, jobs); END IF;
  -- The breaker's row is shared by every call of the connection's model: last, held only to the commit.
  IF breaker IS NOT NULL THEN
    counted := beacon_breaker_count(prior.connection_id, breaker->>'model', (breaker->>'failed')::boolean, (breaker->>'slow')::boolean, (breaker->>'windowSize')::int);
    IF counted IS NOT NULL THEN UPDATE attempts SET "breakerCounted" = true WHERE "runToken" = run_token; END IF;
  END IF;
  RETURN QUERY SELECT 'succeeded'::text, prior.check_id, prior.workspace_id, counted;
END $function$;
