-- Attempts: one written already ended (the demo history, tests). A claim inserts open attempts:
-- the WHEN clause is all it costs there (no event is queued, the function never runs).
DROP TRIGGER IF EXISTS attempts_cost_rollup_inserted ON public.attempts;
CREATE TRIGGER attempts_cost_rollup_inserted
AFTER INSERT ON public.attempts
FOR EACH ROW WHEN ((new.outcome IS NOT NULL))
EXECUTE FUNCTION beacon_rollup_attempt_ended();
