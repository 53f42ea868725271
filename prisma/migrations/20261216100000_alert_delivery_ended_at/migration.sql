-- When a delivery ended (delivered, failed, or unknown), which retention counts its days from.
-- It counted from createdAt, so an old delivery of unknown outcome that a user sent again was
-- deleted by the next pass after it was delivered, gone from the log the user had just acted in.
-- Set by each write that ends a delivery, cleared when it is put back to pending
-- (lib/alerts/deliveries.ts). Rows that ended before: their delivery time, else their creation.
ALTER TABLE "alert_deliveries" ADD COLUMN "endedAt" TIMESTAMP(3);
UPDATE "alert_deliveries" SET "endedAt" = coalesce("deliveredAt", "createdAt") WHERE status IN ('delivered', 'failed', 'unknown');
