-- A new capture's prompt version (beacon_capture_prompt_version).
DROP TRIGGER IF EXISTS captures_prompt_version ON public.captures;
CREATE TRIGGER captures_prompt_version
BEFORE INSERT ON public.captures
FOR EACH ROW
EXECUTE FUNCTION beacon_capture_prompt_version();
-- Also with session_replication_role = replica (bulk copies of captures with the metric and rollup
-- triggers off, as tests and benchmarks make them): the column is NOT NULL.
ALTER TABLE public.captures ENABLE ALWAYS TRIGGER captures_prompt_version;
