-- Slots of the connection were given back (lib/lifecycle/transition.ts handOnSlots
-- explains the order and the nudge). Returns how many waiting captures were woken.
CREATE OR REPLACE FUNCTION public.beacon_hand_on_slots(connection_id uuid, freed integer, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
END $function$;
