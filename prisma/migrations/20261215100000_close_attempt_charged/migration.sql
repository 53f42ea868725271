-- beacon_close_attempt returns what it charged (its cost up to the attempt's reservation,
-- beacon_attempt_charge): an unknown outcome estimated at prices raised during the call was
-- charged whole, past the reservation the budget and the grant's limit had admitted. Its result
-- type changes, which CREATE OR REPLACE cannot do: dropped here, the file in prisma/sql defines it
-- again (no trigger uses it; beacon_succeed calls it, resolved when it runs).
DROP FUNCTION IF EXISTS public.beacon_close_attempt(uuid, "AttemptOutcome", text, "ErrorClass", integer, text, integer, integer, integer, integer, integer, bigint, boolean, integer);
