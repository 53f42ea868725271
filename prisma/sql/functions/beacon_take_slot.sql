-- Takes a free slot of the connection for the capture: 'taken', or 'full' (every slot taken or
-- being taken), or 'share' (the workspace holds its fair share while another workspace has
-- captures due on the connection). lib/lifecycle/claim.ts explains the share.
--
-- A lowered cap: slots at or above it are never taken, but calls may still hold them (they ran
-- before the edit) until they end. While they do, a free slot below the cap is not room: the
-- claims of the connection take beacon_slot_drain_key in turn and count the slots held (the
-- others' committed), 'full' at the cap. The cap itself cannot change under a claim (the access
-- lock, beacon_claim). Without this a cap lowered because the provider answered 429s still let
-- the old number of calls run until the long ones ended.
--
-- Planned with each call's values (plan_cache_mode): the cached generic plan, not knowing which
-- statuses `waiting` holds, expected tens of thousands of captures due and chose a seq scan of
-- captures that stops at the first, which read the connection's whole history on every claim
-- after a session's fifth, since nearly none are due (60 ms at 20,000 captures, 2.4 s at
-- 1,000,000: docs/benchmarks.md "write path"). With the values the planner sees from the
-- statistics that few captures wait and takes captures_connectionId_status_workspaceId_idx.
CREATE OR REPLACE FUNCTION public.beacon_take_slot(connection_id uuid, capture_id uuid, workspace_id uuid, waiting "CaptureStatus"[])
 RETURNS text
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
DECLARE
  cap INTEGER := (SELECT pc."maxConcurrency" FROM provider_connections pc WHERE pc.id = connection_id);
  mine INTEGER;
  holders INTEGER;
  taken INTEGER;
BEGIN
  IF cap IS NULL THEN RETURN 'full'; END IF;
  -- Another workspace has captures due on the connection: two index ranges around this
  -- workspace (captures_connectionId_status_workspaceId_idx), not a walk over its own backlog.
  -- A capture waiting for budget is not due, even once its recheck time has come: a workspace
  -- whose budget or grant limit is spent has nothing to run, and its backlog's jobs come last
  -- (priority), so counting them kept another workspace at half the connection for the month.
  -- When money frees up, its next claim waits for a slot and is due from then on.
  IF EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" < workspace_id AND w."cancelRequestedAt" IS NULL
         AND w."waitingFor" IS DISTINCT FROM 'budget' AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC'))
     OR EXISTS (
       SELECT 1 FROM captures w
       WHERE w."connectionId" = connection_id AND w.status = ANY(waiting) AND w."workspaceId" > workspace_id AND w."cancelRequestedAt" IS NULL
         AND w."waitingFor" IS DISTINCT FROM 'budget' AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC')) THEN
    SELECT count(*) FILTER (WHERE s."workspaceId" = workspace_id)::int, count(DISTINCT s."workspaceId") FILTER (WHERE s."workspaceId" <> workspace_id)::int
    INTO mine, holders
    FROM connection_slots s WHERE s."connectionId" = connection_id AND s."captureId" IS NOT NULL;
    -- The cap divided by the workspaces that hold slots, counting this one and, when only this
    -- one holds any, the one waiting.
    IF mine >= greatest(1, ceil(cap::numeric / (1 + greatest(1, holders)))) THEN RETURN 'share'; END IF;
  END IF;
  IF EXISTS (SELECT 1 FROM connection_slots s WHERE s."connectionId" = connection_id AND s.slot >= cap AND s."captureId" IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(beacon_slot_drain_key(connection_id));
    IF (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = connection_id AND s."captureId" IS NOT NULL) >= cap THEN RETURN 'full'; END IF;
  END IF;
  UPDATE connection_slots s SET "captureId" = capture_id, "workspaceId" = workspace_id, "takenAt" = now()
  WHERE (s."connectionId", s.slot) = (
    SELECT f."connectionId", f.slot FROM connection_slots f
    WHERE f."connectionId" = connection_id AND f."captureId" IS NULL AND f.slot < cap
    ORDER BY f.slot LIMIT 1 FOR UPDATE OF f SKIP LOCKED);
  GET DIAGNOSTICS taken = ROW_COUNT;
  RETURN CASE WHEN taken > 0 THEN 'taken' ELSE 'full' END;
END $function$;
