-- When the workspace's first site key was made: the visits script has reported since then, and a
-- rotation (which sets "createdAt") keeps it. The "AI visits changed" alert waits until this is
-- older than both periods it compares; waiting on "createdAt" made it go quiet for two periods
-- after a rotation, exactly when a site still sending the old key makes visits fall.
ALTER TABLE "traffic_site_keys" ADD COLUMN "firstCreatedAt" TIMESTAMP(3);
UPDATE "traffic_site_keys" SET "firstCreatedAt" = "createdAt";
ALTER TABLE "traffic_site_keys" ALTER COLUMN "firstCreatedAt" SET NOT NULL;
ALTER TABLE "traffic_site_keys" ALTER COLUMN "firstCreatedAt" SET DEFAULT CURRENT_TIMESTAMP;
