-- Competitor discovery reads each answer once (issue 20): the names an answer presents as options
-- and the workspace does not track (lib/analysis/brand-candidates.ts) are stored when the answer
-- is analysed, beside its mentions, and counted per day in a rollup, so the daily pass reads the
-- rollup instead of every answer text of its period.
--
-- capture_candidates: one row per succeeded, analysed capture and candidate (its counting key and
-- the spelling the answer used), written with the capture's mentions (beacon_succeed, a
-- re-analysis batch, the demo history) and gone with the capture. The capture's finish time,
-- provider and prompt are copied (they never change once it succeeded), so the examples and the
-- first spellings of a name are read from one index without touching captures.
CREATE TABLE "capture_candidates" (
    "captureId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,

    CONSTRAINT "capture_candidates_pkey" PRIMARY KEY ("captureId", "key")
);
ALTER TABLE "capture_candidates" ADD CONSTRAINT "capture_candidates_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES "captures"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "capture_candidates_workspaceId_brandId_key_finishedAt_captu_idx" ON "capture_candidates"("workspaceId", "brandId", "key", "finishedAt", "captureId");

-- rollup_candidates: answers per (rollup_answers key, candidate key, spelling). An answer names a
-- key once, in one spelling, so a key's answers are the sum over its spellings. Kept by
-- beacon_rollup_captures like the other rollups (exact under re-analysis), and kept when raw rows go.
CREATE TABLE "rollup_candidates" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidates_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name")
);
ALTER TABLE "rollup_candidates" ADD CONSTRAINT "rollup_candidates_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidates" ADD CONSTRAINT "rollup_candidates_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- rollup_candidate_days: the same without the prompt, what the pass reads when no tag filter needs
-- the prompt (the prompt multiplies the rows: at a million answers over 30 days, 1.1 million
-- rollup_candidates rows read in about a second on this machine, as rollup_domains is to
-- rollup_citations).
CREATE TABLE "rollup_candidate_days" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "answers" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_candidate_days_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "key", "name")
);
ALTER TABLE "rollup_candidate_days" ADD CONSTRAINT "rollup_candidate_days_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_candidate_days" ADD CONSTRAINT "rollup_candidate_days_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- beacon_succeed takes the candidates (prisma/sql/functions/beacon_succeed.sql): the old
-- signature goes, the file brings the new one back.
DROP FUNCTION IF EXISTS public.beacon_succeed(uuid, uuid, text, bigint, integer, boolean, jsonb, jsonb, jsonb, jsonb, smallint, integer, jsonb, jsonb, integer, jsonb);

-- The history already there has no candidates stored: as a brand edit does (and as
-- 20261207150000_sentiment_clauses did), every brand with succeeded answers gets a new analysis
-- version and one re-analysis run queued (the one not started yet when there is one), which
-- stores each answer's candidates and their rollup. Until it has passed an answer, discovery does
-- not count it. graphile-worker's schema is there wherever answers are; without it there is
-- nothing to re-analyse.
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
