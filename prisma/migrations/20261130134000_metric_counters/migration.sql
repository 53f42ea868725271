-- Metric counters for /api/metrics (lib/metrics/collect.ts), kept by triggers on captures,
-- attempts and events, so that a scrape reads a few hundred small rows whatever the size of the
-- history instead of counting captures, attempts and events. Every path that moves a capture or
-- an attempt (worker, cancel, retry, sweeper, repair, seed, raw SQL) is counted, because the
-- database counts it.
--
-- Contention: a single row updated by every transition would serialise all workers (each holds
-- the row lock until its transaction commits). Every transaction therefore adds to one of 16
-- shards, chosen by its transaction id (the same shard for all its writes: two transactions meet
-- only when their ids collide modulo 16); a scrape sums the shards. A capture's counts are one
-- wide row per shard (one row lock per transition, not one per status), an attempt's one row per
-- provider name and shard. And the counting runs at commit (deferred constraint triggers), so a
-- transaction holds a metric row only while it commits, takes metric rows after all its other
-- locks, and takes them in the order of its writes, its capture's first: no lock cycle. (A
-- migration that moves captures or attempts and then alters their table runs
-- `SET CONSTRAINTS ALL IMMEDIATE` first, as PostgreSQL refuses to alter a table with pending
-- trigger events.)
--
-- Counters (created, accepted, attempts by outcome, lease_expired, repairs) only grow: deleting
-- old attempts (retention) or events does not take them back. Gauges (waiting, running) follow
-- deletes too.

-- CreateTable
CREATE TABLE "metric_capture_counts" (
    "shard" SMALLINT NOT NULL,
    "created" BIGINT NOT NULL DEFAULT 0,
    "accepted" BIGINT NOT NULL DEFAULT 0,
    "queued" BIGINT NOT NULL DEFAULT 0,
    "retryWait" BIGINT NOT NULL DEFAULT 0,
    "postponed" BIGINT NOT NULL DEFAULT 0,
    "waitingForBudget" BIGINT NOT NULL DEFAULT 0,
    "running" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_capture_counts_pkey" PRIMARY KEY ("shard")
) WITH (fillfactor = 50);

-- CreateTable
CREATE TABLE "metric_attempt_counts" (
    "provider" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "running" BIGINT NOT NULL DEFAULT 0,
    "succeeded" BIGINT NOT NULL DEFAULT 0,
    "failed" BIGINT NOT NULL DEFAULT 0,
    "unknown" BIGINT NOT NULL DEFAULT 0,
    "cancelled" BIGINT NOT NULL DEFAULT 0,
    "leaseExpired" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_attempt_counts_pkey" PRIMARY KEY ("provider","shard")
) WITH (fillfactor = 50);

-- CreateTable
CREATE TABLE "metric_repair_counts" (
    "kind" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_repair_counts_pkey" PRIMARY KEY ("kind")
);

-- CreateTable: attempts started per minute (the retry rate over the last hour). A ring of 128
-- minute slots per shard: a slot is reused once its minute is more than two hours old.
CREATE TABLE "metric_attempt_minutes" (
    "slot" SMALLINT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "attempts" BIGINT NOT NULL DEFAULT 0,
    "retries" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_attempt_minutes_pkey" PRIMARY KEY ("slot","shard")
) WITH (fillfactor = 50);

-- CreateTable: captures accepted per hour and their cost (cost per accepted capture over the
-- last 24 hours). A ring of 32 hour slots per shard.
CREATE TABLE "metric_accepted_hours" (
    "slot" SMALLINT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "accepted" BIGINT NOT NULL DEFAULT 0,
    "costMicros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_accepted_hours_pkey" PRIMARY KEY ("slot","shard")
) WITH (fillfactor = 50);

-- The shard this transaction writes to.
CREATE OR REPLACE FUNCTION beacon_metric_shard() RETURNS smallint
LANGUAGE sql VOLATILE AS $$
  SELECT (txid_current() % 16)::smallint
$$;

-- Adds to the ring slot of a minute (timestamps are UTC, as every timestamp column here). A slot
-- that holds an older minute starts again from this one; a minute older than the one its slot
-- holds left every window long ago and is dropped, and so is anything outside [now - 2 h,
-- now + 5 min] (old history, clocks far ahead), so a slot never holds a minute a scrape reads
-- while a newer one waits.
CREATE OR REPLACE FUNCTION beacon_metric_add_minute(bucket timestamp, d_attempts bigint, d_retries bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "metric_attempt_minutes" AS w ("slot", "shard", "startsAt", "attempts", "retries")
  SELECT (floor(extract(epoch FROM bucket) / 60)::bigint % 128)::smallint, beacon_metric_shard(), bucket, d_attempts, d_retries
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '2 hours' AND (now() AT TIME ZONE 'UTC') + interval '5 minutes'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "attempts" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."attempts" + EXCLUDED."attempts" ELSE EXCLUDED."attempts" END,
    "retries" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."retries" + EXCLUDED."retries" ELSE EXCLUDED."retries" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$$;

-- The same for an hour: the ring holds 32, a window reads the last 25.
CREATE OR REPLACE FUNCTION beacon_metric_add_hour(bucket timestamp, d_accepted bigint, d_cost_micros bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "metric_accepted_hours" AS w ("slot", "shard", "startsAt", "accepted", "costMicros")
  SELECT (floor(extract(epoch FROM bucket) / 3600)::bigint % 32)::smallint, beacon_metric_shard(), bucket, d_accepted, d_cost_micros
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '26 hours' AND (now() AT TIME ZONE 'UTC') + interval '1 hour'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
    "accepted" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."accepted" + EXCLUDED."accepted" ELSE EXCLUDED."accepted" END,
    "costMicros" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."costMicros" + EXCLUDED."costMicros" ELSE EXCLUDED."costMicros" END,
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$$;

-- Adds deltas to this transaction's shard of the capture counts.
CREATE OR REPLACE FUNCTION beacon_metric_add_captures(d_created bigint, d_accepted bigint, d_queued bigint, d_retry_wait bigint, d_postponed bigint, d_waiting_for_budget bigint, d_running bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "metric_capture_counts" AS m ("shard", "created", "accepted", "queued", "retryWait", "postponed", "waitingForBudget", "running")
  VALUES (beacon_metric_shard(), d_created, d_accepted, d_queued, d_retry_wait, d_postponed, d_waiting_for_budget, d_running)
  ON CONFLICT ("shard") DO UPDATE SET
    "created" = m."created" + EXCLUDED."created",
    "accepted" = m."accepted" + EXCLUDED."accepted",
    "queued" = m."queued" + EXCLUDED."queued",
    "retryWait" = m."retryWait" + EXCLUDED."retryWait",
    "postponed" = m."postponed" + EXCLUDED."postponed",
    "waitingForBudget" = m."waitingForBudget" + EXCLUDED."waitingForBudget",
    "running" = m."running" + EXCLUDED."running"
$$;

-- Adds deltas to this transaction's shard of a provider's attempt counts.
CREATE OR REPLACE FUNCTION beacon_metric_add_attempts(d_provider text, d_running bigint, d_succeeded bigint, d_failed bigint, d_unknown bigint, d_cancelled bigint, d_lease_expired bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "metric_attempt_counts" AS m ("provider", "shard", "running", "succeeded", "failed", "unknown", "cancelled", "leaseExpired")
  VALUES (d_provider, beacon_metric_shard(), d_running, d_succeeded, d_failed, d_unknown, d_cancelled, d_lease_expired)
  ON CONFLICT ("provider", "shard") DO UPDATE SET
    "running" = m."running" + EXCLUDED."running",
    "succeeded" = m."succeeded" + EXCLUDED."succeeded",
    "failed" = m."failed" + EXCLUDED."failed",
    "unknown" = m."unknown" + EXCLUDED."unknown",
    "cancelled" = m."cancelled" + EXCLUDED."cancelled",
    "leaseExpired" = m."leaseExpired" + EXCLUDED."leaseExpired"
$$;

-- The provider label of an attempt: its capture's provider name (as the metrics always showed).
CREATE OR REPLACE FUNCTION beacon_metric_provider_of(capture_id uuid) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT pc."name" FROM "captures" c JOIN "provider_configs" pc ON pc."id" = c."providerConfigId" WHERE c."id" = capture_id
$$;

-- Captures: inserted (once per statement: a check's captures come in one INSERT).
CREATE OR REPLACE FUNCTION beacon_metrics_captures_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM beacon_metric_add_captures(
    count(*),
    count(*) FILTER (WHERE status = 'succeeded'),
    count(*) FILTER (WHERE status = 'queued'),
    count(*) FILTER (WHERE status = 'retry_wait'),
    count(*) FILTER (WHERE status = 'postponed'),
    count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget'),
    count(*) FILTER (WHERE status = 'running'))
  FROM inserted HAVING count(*) > 0;
  PERFORM beacon_metric_add_hour(date_trunc('hour', "finishedAt"), count(*), sum("costMicros")::bigint)
  FROM inserted
  WHERE status = 'succeeded' AND "finishedAt" >= (now() AT TIME ZONE 'UTC') - interval '26 hours'
  GROUP BY date_trunc('hour', "finishedAt");
  RETURN NULL;
END
$$;

-- Captures: a status (or what a postponed capture waits for) changed.
CREATE OR REPLACE FUNCTION beacon_metrics_capture_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM beacon_metric_add_captures(
    0,
    (NEW.status = 'succeeded')::int - (OLD.status = 'succeeded')::int,
    (NEW.status = 'queued')::int - (OLD.status = 'queued')::int,
    (NEW.status = 'retry_wait')::int - (OLD.status = 'retry_wait')::int,
    (NEW.status = 'postponed')::int - (OLD.status = 'postponed')::int,
    (NEW.status = 'postponed' AND NEW."waitingFor" IS NOT DISTINCT FROM 'budget')::int
      - (OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    (NEW.status = 'running')::int - (OLD.status = 'running')::int);
  IF NEW.status = 'succeeded' AND OLD.status <> 'succeeded' THEN
    PERFORM beacon_metric_add_hour(date_trunc('hour', NEW."finishedAt"), 1, NEW."costMicros");
  END IF;
  RETURN NULL;
END
$$;

-- Captures: an unfinished one was deleted (its workspace was): the gauges let go of it.
CREATE OR REPLACE FUNCTION beacon_metrics_capture_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM beacon_metric_add_captures(
    0, 0,
    -(OLD.status = 'queued')::int,
    -(OLD.status = 'retry_wait')::int,
    -(OLD.status = 'postponed')::int,
    -(OLD.status = 'postponed' AND OLD."waitingFor" IS NOT DISTINCT FROM 'budget')::int,
    -(OLD.status = 'running')::int);
  RETURN NULL;
END
$$;

-- Attempts: started (by the claim; the demo seed inserts finished ones).
CREATE OR REPLACE FUNCTION beacon_metrics_attempt_started() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  PERFORM beacon_metric_add_minute(date_trunc('minute', NEW."startedAt"), 1, (NEW.number > 1)::int);
  RETURN NULL;
END
$$;

-- Attempts: the outcome (or the reason) was set.
CREATE OR REPLACE FUNCTION beacon_metrics_attempt_closed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
      (NEW.outcome IS NULL)::int - (OLD.outcome IS NULL)::int,
      (NEW.outcome IS NOT DISTINCT FROM 'succeeded')::int - (OLD.outcome IS NOT DISTINCT FROM 'succeeded')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'failed')::int - (OLD.outcome IS NOT DISTINCT FROM 'failed')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'unknown')::int - (OLD.outcome IS NOT DISTINCT FROM 'unknown')::int,
      (NEW.outcome IS NOT DISTINCT FROM 'cancelled')::int - (OLD.outcome IS NOT DISTINCT FROM 'cancelled')::int,
      (NEW.reason IS NOT DISTINCT FROM 'lease_expired')::int - (OLD.reason IS NOT DISTINCT FROM 'lease_expired')::int);
  END IF;
  RETURN NULL;
END
$$;

-- Attempts: an open one was deleted (with its capture): no longer running. When the capture
-- went in the same transaction its provider cannot be named any more (this runs at commit), and
-- the provider's in-flight gauge keeps counting it; only deleting a workspace with calls in
-- flight does that.
CREATE OR REPLACE FUNCTION beacon_metrics_attempt_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  provider text := beacon_metric_provider_of(OLD."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(provider, -1, 0, 0, 0, 0, 0);
  END IF;
  RETURN NULL;
END
$$;

-- Events: a repair was recorded (beacon_lifecycle_repairs_total{kind}). Repairs are rare, so
-- one row per kind.
CREATE OR REPLACE FUNCTION beacon_metrics_repair_recorded() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "metric_repair_counts" AS m ("kind", "count") VALUES (coalesce(NEW.data->>'kind', 'unknown'), 1)
  ON CONFLICT ("kind") DO UPDATE SET "count" = m."count" + 1;
  RETURN NULL;
END
$$;

-- No writer may slip between the backfill below and the triggers: both happen under this lock.
LOCK TABLE "captures", "attempts", "events" IN SHARE ROW EXCLUSIVE MODE;

-- A check's captures arrive in one INSERT: counted once per statement. Every other trigger is
-- deferred to the commit (constraint triggers, INITIALLY DEFERRED), so that the metric rows are
-- the last locks a transition takes, after its capture, attempt, check and budget rows, held for
-- the commit only; and every transaction takes them in the order of its writes, capture first.
CREATE TRIGGER "captures_metrics_inserted"
AFTER INSERT ON "captures" REFERENCING NEW TABLE AS inserted
FOR EACH STATEMENT EXECUTE FUNCTION beacon_metrics_captures_inserted();

CREATE CONSTRAINT TRIGGER "captures_metrics_moved"
AFTER UPDATE OF "status", "waitingFor" ON "captures" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."waitingFor" IS DISTINCT FROM NEW."waitingFor")
EXECUTE FUNCTION beacon_metrics_capture_moved();

CREATE CONSTRAINT TRIGGER "captures_metrics_deleted"
AFTER DELETE ON "captures" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (OLD."status" IN ('queued', 'retry_wait', 'postponed', 'running'))
EXECUTE FUNCTION beacon_metrics_capture_deleted();

CREATE CONSTRAINT TRIGGER "attempts_metrics_started"
AFTER INSERT ON "attempts" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION beacon_metrics_attempt_started();

CREATE CONSTRAINT TRIGGER "attempts_metrics_closed"
AFTER UPDATE OF "outcome", "reason" ON "attempts" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (OLD."outcome" IS DISTINCT FROM NEW."outcome" OR OLD."reason" IS DISTINCT FROM NEW."reason")
EXECUTE FUNCTION beacon_metrics_attempt_closed();

CREATE CONSTRAINT TRIGGER "attempts_metrics_deleted"
AFTER DELETE ON "attempts" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (OLD."outcome" IS NULL)
EXECUTE FUNCTION beacon_metrics_attempt_deleted();

CREATE CONSTRAINT TRIGGER "events_metrics_repairs"
AFTER INSERT ON "events" DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN (NEW."kind" = 'lifecycle_repaired')
EXECUTE FUNCTION beacon_metrics_repair_recorded();

-- Data: the counters start from what the tables hold now (in shard 0).
INSERT INTO "metric_capture_counts" ("shard", "created", "accepted", "queued", "retryWait", "postponed", "waitingForBudget", "running")
SELECT 0, count(*), count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status = 'queued'),
       count(*) FILTER (WHERE status = 'retry_wait'), count(*) FILTER (WHERE status = 'postponed'),
       count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget'), count(*) FILTER (WHERE status = 'running')
FROM "captures";

INSERT INTO "metric_attempt_counts" ("provider", "shard", "running", "succeeded", "failed", "unknown", "cancelled", "leaseExpired")
SELECT pc."name", 0, count(*) FILTER (WHERE a.outcome IS NULL), count(*) FILTER (WHERE a.outcome = 'succeeded'),
       count(*) FILTER (WHERE a.outcome = 'failed'), count(*) FILTER (WHERE a.outcome = 'unknown'),
       count(*) FILTER (WHERE a.outcome = 'cancelled'), count(*) FILTER (WHERE a.reason = 'lease_expired')
FROM "attempts" a JOIN "captures" c ON c."id" = a."captureId" JOIN "provider_configs" pc ON pc."id" = c."providerConfigId"
GROUP BY pc."name";

INSERT INTO "metric_repair_counts" ("kind", "count")
SELECT coalesce(data->>'kind', 'unknown'), count(*) FROM "events" WHERE kind = 'lifecycle_repaired' GROUP BY 1;

SELECT beacon_metric_add_minute(date_trunc('minute', "startedAt"), count(*), count(*) FILTER (WHERE number > 1))
FROM "attempts" WHERE "startedAt" >= (now() AT TIME ZONE 'UTC') - interval '2 hours'
GROUP BY date_trunc('minute', "startedAt");

SELECT beacon_metric_add_hour(date_trunc('hour', "finishedAt"), count(*), sum("costMicros")::bigint)
FROM "captures" WHERE status = 'succeeded' AND "finishedAt" >= (now() AT TIME ZONE 'UTC') - interval '26 hours'
GROUP BY date_trunc('hour', "finishedAt");
