-- beacon_rollup_stage takes the kinds of raw rows a rewrite changes (sources: mentions,
-- citations, candidates) and stages only the rollups that read them (lib/analytics/rollup-sql.ts):
-- a re-analysis that changes only mentions no longer stages the domain and page rollups. A new
-- argument is a new signature, so the old function goes here; prisma/sql/functions makes the new.
DROP FUNCTION IF EXISTS public.beacon_rollup_stage(uuid[], integer);
