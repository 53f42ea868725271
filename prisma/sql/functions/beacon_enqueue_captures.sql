-- One capture job per waiting capture among `ids`, due `delay_ms` after now (lib/jobs/enqueue.ts
-- explains the priority: the capture's place in its workspace's queue for its connection).
CREATE OR REPLACE FUNCTION public.beacon_enqueue_captures(ids uuid[], delay_ms double precision, jobs jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
END $function$;
