-- What transitions owe the ledgers, as deltas on one shard other than the admission row: holds
-- given back (budget "reservedMicros"), calls settled (worst case out of "inFlightMicros", cost
-- into "chargedMicros"), summed per workspace and month and per grant and month here. Arrays of
-- equal length; rows of several captures may share a month; rows without a key or with nothing
-- to add are left out.
CREATE OR REPLACE FUNCTION public.beacon_settle_ledgers(to_shard smallint, b_workspace uuid[], b_period date[], b_reserved bigint[], b_in_flight bigint[], b_charged bigint[], g_connection uuid[], g_workspace uuid[], g_period date[], g_in_flight bigint[], g_charged bigint[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO budget_periods AS b ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.w, v.p, to_shard, -sum(v.r), -sum(v.f), sum(v.c), now()
  FROM unnest(b_workspace, b_period, b_reserved, b_in_flight, b_charged) AS v(w, p, r, f, c)
  WHERE v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.w, v.p HAVING sum(v.r) <> 0 OR sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.w, v.p
  ON CONFLICT ("workspaceId", "periodStart", shard) DO UPDATE SET
    "reservedMicros" = b."reservedMicros" + EXCLUDED."reservedMicros",
    "inFlightMicros" = b."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = b."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
  INSERT INTO grant_spend_periods AS g ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "chargedMicros", "updatedAt")
  SELECT v.k, v.w, v.p, to_shard, -sum(v.f), sum(v.c), now()
  FROM unnest(g_connection, g_workspace, g_period, g_in_flight, g_charged) AS v(k, w, p, f, c)
  WHERE v.k IS NOT NULL AND v.w IS NOT NULL AND v.p IS NOT NULL
  GROUP BY v.k, v.w, v.p HAVING sum(v.f) <> 0 OR sum(v.c) <> 0 ORDER BY v.k, v.w, v.p
  ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE SET
    "inFlightMicros" = g."inFlightMicros" + EXCLUDED."inFlightMicros",
    "chargedMicros" = g."chargedMicros" + EXCLUDED."chargedMicros",
    "updatedAt" = now();
END $function$;
