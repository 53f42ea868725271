-- An attempt ended (its outcome went from NULL to a value, beacon_close_attempt) or was written
-- already ended (the demo history): its sums go into rollup_attempts, which the Costs page reads,
-- in the same transaction. Nothing changes an ended attempt's cost or outcome, and retention's
-- deletion takes nothing back (the spend is history). Lock order: the closing transaction has
-- locked the capture; this row comes before the capture rollups (beacon_succeed closes the
-- attempt first), the ledgers and, at commit, the metric counters. A transaction that closes
-- several attempts (the repair pass) closes them in this row's key order.
CREATE OR REPLACE FUNCTION public.beacon_rollup_attempt_ended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  wasted int := (NEW.outcome <> 'succeeded')::int;
  unknown int := (NEW.outcome = 'unknown')::int;
BEGIN
  INSERT INTO rollup_attempts AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "attempts", "costMicros", "wastedMicros",
    "wastedAttempts", "chargedWastedAttempts", "unknownAttempts", "unknownCostMicros", "estimatedCostMicros")
  SELECT NEW."workspaceId", c."brandId", NEW."startedAt"::date, c."providerConfigId", c."promptId", 1, NEW."costMicros", wasted * NEW."costMicros",
    wasted, wasted * (NEW."costMicros" > 0)::int, unknown, unknown * NEW."costMicros", CASE WHEN NEW."costIsEstimate" THEN NEW."costMicros" ELSE 0 END
  FROM captures c WHERE c.id = NEW."captureId"
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
    "attempts" = r."attempts" + excluded."attempts",
    "costMicros" = r."costMicros" + excluded."costMicros",
    "wastedMicros" = r."wastedMicros" + excluded."wastedMicros",
    "wastedAttempts" = r."wastedAttempts" + excluded."wastedAttempts",
    "chargedWastedAttempts" = r."chargedWastedAttempts" + excluded."chargedWastedAttempts",
    "unknownAttempts" = r."unknownAttempts" + excluded."unknownAttempts",
    "unknownCostMicros" = r."unknownCostMicros" + excluded."unknownCostMicros",
    "estimatedCostMicros" = r."estimatedCostMicros" + excluded."estimatedCostMicros";
  RETURN NULL;
END
$function$;
