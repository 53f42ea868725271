-- Alert deliveries for /api/metrics (lib/metrics/collect.ts): sent, failed and retried per
-- channel kind, counted by a trigger so a scrape reads a few rows, never the deliveries, and
-- deleting old deliveries (retention) takes nothing back. Deliveries are few (alerts, tests,
-- digests), so one row per kind and outcome, unsharded, is enough.

-- CreateTable
CREATE TABLE "metric_alert_delivery_counts" (
    "channelKind" "AlertChannelKind" NOT NULL,
    "outcome" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "metric_alert_delivery_counts_pkey" PRIMARY KEY ("channelKind","outcome")
);

-- A delivery that ended (delivered, failed) or was put back to wait for a retry (still pending,
-- with a new next attempt) counts once under its channel's kind.
CREATE FUNCTION beacon_count_alert_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted TEXT;
BEGIN
  IF NEW.status <> OLD.status AND NEW.status IN ('delivered', 'failed') THEN
    counted := NEW.status::text;
  ELSIF NEW.status = 'pending' AND NEW."nextAttemptAt" IS NOT NULL AND NEW."nextAttemptAt" IS DISTINCT FROM OLD."nextAttemptAt" THEN
    counted := 'retried';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO metric_alert_delivery_counts ("channelKind", outcome, count)
  SELECT c.kind, counted, 1 FROM alert_channels c WHERE c.id = NEW."channelId"
  ON CONFLICT ("channelKind", outcome) DO UPDATE SET count = metric_alert_delivery_counts.count + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER alert_deliveries_count AFTER UPDATE OF status, "nextAttemptAt" ON "alert_deliveries"
  FOR EACH ROW EXECUTE FUNCTION beacon_count_alert_delivery();
