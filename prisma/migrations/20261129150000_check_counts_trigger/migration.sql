-- Keep a check's per-status capture counts in step with its captures, in the database, so every
-- path that moves a capture (worker, cancel, retry, sweeper, raw SQL) updates them, at O(1)
-- per transition instead of recounting the check's captures each time. Captures are inserted
-- with their check, whose counts start right (queuedCount = totalCaptures), so only status
-- changes are counted here.
CREATE OR REPLACE FUNCTION beacon_capture_bucket(status "CaptureStatus") RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status IN ('queued', 'retry_wait', 'postponed') THEN 'queued' ELSE status::text END
$$;

CREATE OR REPLACE FUNCTION beacon_capture_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  before_bucket text := beacon_capture_bucket(OLD.status);
  after_bucket text := beacon_capture_bucket(NEW.status);
BEGIN
  IF before_bucket <> after_bucket THEN
    UPDATE "checks" SET
      "queuedCount" = "queuedCount" - (before_bucket = 'queued')::int + (after_bucket = 'queued')::int,
      "runningCount" = "runningCount" - (before_bucket = 'running')::int + (after_bucket = 'running')::int,
      "succeededCount" = "succeededCount" - (before_bucket = 'succeeded')::int + (after_bucket = 'succeeded')::int,
      "failedCount" = "failedCount" - (before_bucket = 'failed')::int + (after_bucket = 'failed')::int,
      "cancelledCount" = "cancelledCount" - (before_bucket = 'cancelled')::int + (after_bucket = 'cancelled')::int
    WHERE "id" = NEW."checkId";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "captures_count_status_changes"
AFTER UPDATE OF "status" ON "captures"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
EXECUTE FUNCTION beacon_capture_counts();
