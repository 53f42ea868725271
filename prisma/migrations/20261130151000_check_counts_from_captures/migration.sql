-- No hot row per check: a check's counts per status and its holds are read from its captures
-- (the index on captures ("checkId", status)) instead of being kept on the check row by a
-- trigger, which made every transition of every capture of a check queue on that one row.
-- The check row is written when its first capture is claimed (queued -> running), when it
-- finishes (status, finishedAt, chargedMicros), and by people (cancel, retry).
DROP TRIGGER "captures_count_status_changes" ON "captures";
DROP FUNCTION beacon_capture_counts();
DROP FUNCTION beacon_capture_bucket("CaptureStatus");

ALTER TABLE "checks"
  DROP COLUMN "queuedCount",
  DROP COLUMN "runningCount",
  DROP COLUMN "succeededCount",
  DROP COLUMN "failedCount",
  DROP COLUMN "cancelledCount",
  DROP COLUMN "reservedMicros";

-- The checks still running, for the maintenance pass that finishes those whose last capture's
-- worker stopped between recording it and finishing the check.
CREATE INDEX "checks_unfinished_idx" ON "checks" ("id") WHERE "finishedAt" IS NULL;
