-- The brand's re-analysis run that has not started yet, locked, or else a new one (total 0) with
-- its job on the brand's queue: the one rule for where answers analysed with older inputs go, for
-- a brand edit (lib/brands/reanalysis.ts startReanalysis, which sets its total) and for an answer
-- recorded with older inputs after a run passed it (beacon_succeed, which adds one). A run that
-- started meanwhile is not reused: it may have read the brand before the caller's change, and
-- stops at its next batch on seeing the newer version; the new run follows it on the brand's queue.
-- A run starting while the caller holds the lock waits for the caller's commit (its start is an
-- UPDATE of this row), and then reads the brand after the change.
CREATE OR REPLACE FUNCTION public.beacon_reanalysis_run(workspace_id uuid, brand_id uuid, reanalysis_job jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  run_id uuid;
BEGIN
  SELECT r.id INTO run_id FROM analysis_runs r
  WHERE r."brandId" = beacon_reanalysis_run.brand_id AND r.status = 'queued'
  ORDER BY r."createdAt", r.id LIMIT 1
  FOR UPDATE;
  IF run_id IS NULL THEN
    INSERT INTO analysis_runs (id, "workspaceId", "brandId", total) VALUES (gen_random_uuid(), workspace_id, brand_id, 0)
    RETURNING id INTO run_id;
    PERFORM graphile_worker.add_job(reanalysis_job->>'task', json_build_object('analysisRunId', run_id),
      queue_name => (reanalysis_job->>'queuePrefix') || brand_id, max_attempts => (reanalysis_job->>'maxAttempts')::int);
  END IF;
  RETURN run_id;
END
$function$;
