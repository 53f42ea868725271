-- Adds `amount` to this month's admission row (shard 0) of the workspace's budget or of its grant
-- on a connection, in column "reservedMicros" or "inFlightMicros", only if that column plus
-- charged, over all shards, stays within the limit (beacon_fits). Returns the month, or NULL
-- when it did not fit. The rule is applied inside the upsert (its WHERE and its ON CONFLICT
-- ... WHERE), to the latest version of the admission row the statement locks, never read first
-- and written after. lib/billing/budget.ts explains why the other shards may be read from the
-- statement's snapshot.
CREATE OR REPLACE FUNCTION public.beacon_budget_add(workspace_id uuid, in_flight boolean, amount bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
DECLARE
  month DATE := beacon_month();
  cap BIGINT := (SELECT w."monthlyBudgetMicros" FROM workspaces w WHERE w.id = workspace_id);
  others_charged BIGINT;
  others_in_use BIGINT;
  added DATE;
BEGIN
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros"), 0), coalesce(sum(CASE WHEN in_flight THEN s."inFlightMicros" ELSE s."reservedMicros" END), 0)
    INTO others_charged, others_in_use
    FROM budget_periods s WHERE s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "updatedAt")
  SELECT workspace_id, month, 0, CASE WHEN in_flight THEN 0 ELSE amount END, CASE WHEN in_flight THEN amount ELSE 0 END, now()
  WHERE beacon_fits(others_charged, others_in_use, amount, cap)
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE
    SET "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros", "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE beacon_fits(b."chargedMicros" + others_charged, CASE WHEN in_flight THEN b."inFlightMicros" ELSE b."reservedMicros" END + others_in_use, amount, cap)
  RETURNING b."periodStart" INTO added;
  RETURN added;
END $function$;
