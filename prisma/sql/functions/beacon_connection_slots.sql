-- Slots 0 .. maxConcurrency - 1 exist for every connection; raising the cap adds the missing
-- ones. Slots above a lowered cap stay (a capture may hold one) and are not taken; while one is
-- held, beacon_take_slot counts the held slots against the cap.
CREATE OR REPLACE FUNCTION public.beacon_connection_slots()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "connection_slots" ("connectionId", "slot")
  SELECT NEW."id", s FROM generate_series(0, NEW."maxConcurrency" - 1) s
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$function$;
