-- Visits that AI assistants send to a workspace's own pages, counted by the /t.js script
-- (issue 21 item 2, docs/traffic.md "Visits sent by assistants").
--
-- traffic_site_keys: the public key a site's script carries (data-site), one per workspace,
-- created and rotated by an admin on the Settings page. It is not a secret (it is in the site's
-- HTML); it only says which workspace a visit belongs to. The row also holds the key's rate
-- limit window, so looking the key up and counting the request is one guarded UPDATE.
CREATE TABLE "traffic_site_keys" (
    "workspaceId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "windowStart" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "windowCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_site_keys_pkey" PRIMARY KEY ("workspaceId")
);
ALTER TABLE "traffic_site_keys" ADD CONSTRAINT "traffic_site_keys_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "traffic_site_keys_key_key" ON "traffic_site_keys"("key");

-- traffic_visits_daily: visits per (workspace, day, landing domain, landing path, assistant).
-- Only this rollup is stored, no raw rows: a visit carries nothing a raw row would add (no
-- time of day is needed, and nothing about the visitor may be kept).
CREATE TABLE "traffic_visits_daily" (
    "workspaceId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "domain" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "assistant" TEXT NOT NULL,
    "visits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "traffic_visits_daily_pkey" PRIMARY KEY ("workspaceId", "day", "domain", "path", "assistant")
);
ALTER TABLE "traffic_visits_daily" ADD CONSTRAINT "traffic_visits_daily_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Per page across days (the funnel's "visits from assistants").
CREATE INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx" ON "traffic_visits_daily"("workspaceId", "domain", "path", "day");
