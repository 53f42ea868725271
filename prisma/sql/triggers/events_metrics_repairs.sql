-- Events: a repair was recorded (beacon_lifecycle_repairs_total{kind}). Repairs are rare, so
-- one row per kind.
DROP TRIGGER IF EXISTS events_metrics_repairs ON public.events;
CREATE CONSTRAINT TRIGGER events_metrics_repairs
AFTER INSERT ON public.events DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW WHEN ((new.kind = 'lifecycle_repaired'::text))
EXECUTE FUNCTION beacon_metrics_repair_recorded();
