-- A grant's spend: a workspace without a grant row on the connection may spend nothing on it,
-- unless the connection is granted to every workspace (then without a limit, as before). A
-- missing row used to mean "no limit", so a revoked workspace spent without one.
CREATE OR REPLACE FUNCTION public.beacon_grant_add(connection_id uuid, workspace_id uuid, amount bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
DECLARE
  month DATE := beacon_month();
  granted BOOLEAN;
  cap BIGINT;
  others_charged BIGINT;
  others_in_use BIGINT;
  added DATE;
BEGIN
  SELECT true, g."monthlySpendLimitMicros" INTO granted, cap FROM connection_grants g WHERE g."connectionId" = connection_id AND g."workspaceId" = workspace_id;
  IF granted IS NULL AND NOT coalesce((SELECT pc."grantedToAll" FROM provider_connections pc WHERE pc.id = connection_id), false) THEN
    RETURN NULL;
  END IF;
  IF cap IS NOT NULL THEN
    SELECT coalesce(sum(s."chargedMicros"), 0), coalesce(sum(s."inFlightMicros"), 0) INTO others_charged, others_in_use
    FROM grant_spend_periods s WHERE s."connectionId" = connection_id AND s."workspaceId" = workspace_id AND s."periodStart" = month AND s.shard <> 0;
  END IF;
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "updatedAt")
  SELECT connection_id, workspace_id, month, 0, amount, now()
  WHERE beacon_fits(others_charged, others_in_use, amount, cap)
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE
    SET "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()
    WHERE beacon_fits(g."chargedMicros" + others_charged, g."inFlightMicros" + others_in_use, amount, cap)
  RETURNING g."periodStart" INTO added;
  RETURN added;
END $function$;
