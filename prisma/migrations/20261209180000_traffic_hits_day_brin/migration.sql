-- Raw crawler hits are written in bulk and read by day only by the retention pass (the pages read
-- traffic_daily). A BRIN index on the day is a few pages and costs an import almost nothing per
-- row, where the B-tree cost one more index insert per hit (bench --traffic).
DROP INDEX "traffic_hits_day_idx";
CREATE INDEX "traffic_hits_day_idx" ON "traffic_hits" USING BRIN ("day");
