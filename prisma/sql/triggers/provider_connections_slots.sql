-- Slots 0 .. maxConcurrency - 1 exist for every connection; raising the cap adds the missing
-- ones. Slots above a lowered cap stay (a capture may hold one) and are simply not taken.
DROP TRIGGER IF EXISTS provider_connections_slots ON public.provider_connections;
CREATE TRIGGER provider_connections_slots
AFTER INSERT OR UPDATE OF "maxConcurrency" ON public.provider_connections
FOR EACH ROW
EXECUTE FUNCTION beacon_connection_slots();
