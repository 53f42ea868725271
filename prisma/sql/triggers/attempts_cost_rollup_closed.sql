-- Attempts: one ended (its outcome was set, once: beacon_close_attempt closes only open ones).
-- Not deferred: the rollup row is taken at the close, before the capture rollups (the lock order
-- in beacon_rollup_attempt_ended).
DROP TRIGGER IF EXISTS attempts_cost_rollup_closed ON public.attempts;
CREATE TRIGGER attempts_cost_rollup_closed
AFTER UPDATE OF outcome ON public.attempts
FOR EACH ROW WHEN (((old.outcome IS NULL) AND (new.outcome IS NOT NULL)))
EXECUTE FUNCTION beacon_rollup_attempt_ended();
