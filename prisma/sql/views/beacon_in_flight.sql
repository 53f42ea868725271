-- Issue 17, defect 3: what is "in flight" is defined once. The worst case of every call reserved
-- and not yet settled, one row per reservation, whoever reserved it. The repair pass compares
-- the ledgers' in-flight sums (budget_periods, grant_spend_periods) with this view and nothing
-- else, so a reserver it does not list would have its reservation "repaired" away while its call
-- runs (the setup wizard's did: claims were then admitted past the hard cap, and the ledgers went
-- negative when the call settled).
--   - an open attempt of a capture (beacon_claim), settled when the attempt closes;
--   - a setup suggestion still `queued` or `running` (lib/setup: reserveCall at the request),
--     settled in the transaction that moves the row out of `running`.
CREATE OR REPLACE VIEW public.beacon_in_flight AS
 SELECT a."workspaceId",
    c."connectionId",
    a."budgetPeriod" AS "periodStart",
    a."reservedMicros" AS micros
   FROM attempts a
     JOIN captures c ON c.id = a."captureId"
  WHERE a.outcome IS NULL AND a."budgetPeriod" IS NOT NULL
UNION ALL
 SELECT s."workspaceId",
    s."connectionId",
    s."budgetPeriod" AS "periodStart",
    s."reservedMicros" AS micros
   FROM setup_suggestions s
  WHERE s.status = ANY (ARRAY['queued'::"SetupSuggestionStatus", 'running'::"SetupSuggestionStatus"]);
