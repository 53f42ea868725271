-- Sentiment is judged per clause, with contrast, hedges and negation, English by VADER (issue 19,
-- lib/analysis/sentiment.ts): answers stored before were scored by the old rule. As a brand edit
-- does (lib/brands/reanalysis.ts, startReanalysis), every brand with succeeded answers gets a new
-- analysis version, so all of them are older than their brand's, and one re-analysis run is
-- queued for it: the one not started yet when there is one, else a new run and its job. A run
-- still going stops at its next batch, seeing the new version, and the queued one takes over.
--
-- The job is the catalog's `reanalyze` (lib/jobs/catalog.ts: queue "reanalyze:<brand id>",
-- 5 attempts), written out as of this migration. graphile-worker's schema is there wherever
-- answers are (`npm run migrate` installs it after the migrations, every run); a database
-- without it has nothing to re-analyse. One statement.
DO $$
DECLARE
  stale RECORD;
  run_id UUID;
BEGIN
  IF to_regnamespace('graphile_worker') IS NULL THEN
    RETURN;
  END IF;
  FOR stale IN
    UPDATE brands b SET "analysisVersion" = b."analysisVersion" + 1
    FROM (SELECT c."brandId", count(*)::int AS total FROM captures c WHERE c.status = 'succeeded' GROUP BY c."brandId") s
    WHERE s."brandId" = b.id
    RETURNING b.id AS brand_id, b."workspaceId" AS workspace_id, s.total
  LOOP
    UPDATE analysis_runs r SET total = stale.total
    WHERE r.id = (SELECT q.id FROM analysis_runs q WHERE q."brandId" = stale.brand_id AND q.status = 'queued' ORDER BY q."createdAt" LIMIT 1)
    RETURNING r.id INTO run_id;
    IF run_id IS NULL THEN
      INSERT INTO analysis_runs (id, "workspaceId", "brandId", total) VALUES (gen_random_uuid(), stale.workspace_id, stale.brand_id, stale.total)
      RETURNING id INTO run_id;
      PERFORM graphile_worker.add_job('reanalyze', json_build_object('analysisRunId', run_id), queue_name => 'reanalyze:' || stale.brand_id, max_attempts => 5);
    END IF;
  END LOOP;
END $$;
