-- Issue 17, defect 4: the setup wizard's job is fenced like a capture's run (lib/setup/run.ts).
-- The run that moves the row from `queued` to `running` stamps its run token, its worker (the
-- heartbeat whose lease covers the call) and the database time it started (microseconds,
-- compared with the heartbeat's activeAsOf like attempts' "startedAt"). Only the holder of the
-- token finishes the row and settles its money; the sweeper ends a run whose worker's lease ran
-- out, or that a live worker no longer lists, charged its estimate.
ALTER TABLE "setup_suggestions"
  ADD COLUMN "runToken" UUID,
  ADD COLUMN "workerId" TEXT,
  ADD COLUMN "startedAt" TIMESTAMP(6);
