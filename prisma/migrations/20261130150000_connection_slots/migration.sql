-- A connection's concurrency slots as rows, so that claims of one connection do not queue on
-- one lock: a claim takes a free slot with FOR UPDATE SKIP LOCKED (it skips slots other claims
-- are taking) and the cap holds because there are only maxConcurrency slots to take. A slot is
-- held exactly while its capture is running: the claim takes it in the transaction that moves
-- the capture to running, and the trigger below gives it back in whatever transaction moves the
-- capture on (result, sweeper, repair), then wakes the capture that waits longest for a slot.
CREATE TABLE "connection_slots" (
  "connectionId" UUID NOT NULL,
  "slot" INTEGER NOT NULL,
  "captureId" UUID,
  "workspaceId" UUID,
  "takenAt" TIMESTAMP(3),
  CONSTRAINT "connection_slots_pkey" PRIMARY KEY ("connectionId", "slot")
);
CREATE UNIQUE INDEX "connection_slots_captureId_key" ON "connection_slots"("captureId");
ALTER TABLE "connection_slots" ADD CONSTRAINT "connection_slots_connectionId_fkey"
  FOREIGN KEY ("connectionId") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "connection_slots" ADD CONSTRAINT "connection_slots_captureId_fkey"
  FOREIGN KEY ("captureId") REFERENCES "captures"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Slots 0 .. maxConcurrency - 1 exist for every connection; raising the cap adds the missing
-- ones. Slots above a lowered cap stay (a capture may hold one) and are simply not taken.
CREATE FUNCTION beacon_connection_slots() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "connection_slots" ("connectionId", "slot")
  SELECT NEW."id", s FROM generate_series(0, NEW."maxConcurrency" - 1) s
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER "provider_connections_slots"
AFTER INSERT OR UPDATE OF "maxConcurrency" ON "provider_connections"
FOR EACH ROW EXECUTE FUNCTION beacon_connection_slots();

INSERT INTO "connection_slots" ("connectionId", "slot")
SELECT c."id", s FROM "provider_connections" c, generate_series(0, c."maxConcurrency" - 1) s;

-- Captures running now hold slots (above the cap if there are more of them than slots).
WITH running AS (
  SELECT id, "connectionId", "workspaceId", row_number() OVER (PARTITION BY "connectionId" ORDER BY "startedAt", id) - 1 AS slot
  FROM "captures" WHERE status = 'running'
)
INSERT INTO "connection_slots" ("connectionId", "slot", "captureId", "workspaceId", "takenAt")
SELECT "connectionId", slot, id, "workspaceId", now() FROM running
ON CONFLICT ("connectionId", "slot") DO UPDATE SET "captureId" = EXCLUDED."captureId", "workspaceId" = EXCLUDED."workspaceId", "takenAt" = EXCLUDED."takenAt";

-- Whatever moves a capture out of running gives its slot back, in the same transaction.
CREATE FUNCTION beacon_release_slot() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "connection_slots" SET "captureId" = NULL, "workspaceId" = NULL, "takenAt" = NULL WHERE "captureId" = NEW."id";
  RETURN NULL;
END
$$;
CREATE TRIGGER "captures_release_slot"
AFTER UPDATE OF "status" ON "captures"
FOR EACH ROW WHEN (OLD."status" = 'running' AND NEW."status" <> 'running')
EXECUTE FUNCTION beacon_release_slot();

-- A capture that waits for a free slot of its connection (postponed, woken when one frees).
ALTER TYPE "CaptureWait" ADD VALUE 'slot';
