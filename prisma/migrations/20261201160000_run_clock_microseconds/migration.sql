-- The sweeper takes a live worker's run over when the attempt started before the worker's last
-- heartbeat read the clock (activeAsOf) and the heartbeat does not list its run token. At
-- Prisma's default precision (milliseconds, rounded) a claim and the next heartbeat can fall in
-- the same millisecond and compare equal, so a run given up was left to a later heartbeat. Both
-- at microseconds (what now() and clock_timestamp() give); a wider precision needs no rewrite.
ALTER TABLE "attempts" ALTER COLUMN "startedAt" TYPE TIMESTAMP(6);
ALTER TABLE "worker_heartbeats" ALTER COLUMN "activeAsOf" TYPE TIMESTAMP(6);
