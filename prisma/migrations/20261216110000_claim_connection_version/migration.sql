-- beacon_claim takes the connection's version ("updatedAt" in epoch milliseconds) the worker read its settings
-- at, and answers 'stale' when an operator's edit committed since: the call then claimed was made
-- with the settings (output cap, endpoint) and reserved at the prices read before the edit. A new
-- argument makes a new function beside the old: the old one is dropped here, the file in
-- prisma/sql defines the new one (no trigger uses it; lib/lifecycle/claim.ts calls it).
DROP FUNCTION IF EXISTS public.beacon_claim(uuid, uuid, text, uuid, text, uuid, bigint, integer, "CaptureStatus"[], smallint, integer, jsonb);
