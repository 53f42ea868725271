-- What a check's attempts deleted by retention cost: its charge, recomputed from its attempts when
-- it finishes again (after a retry), counts them too (lib/lifecycle/transition.ts syncCheck).
ALTER TABLE "checks" ADD COLUMN "retiredAttemptMicros" BIGINT NOT NULL DEFAULT 0;
