-- A new capture's prompt version (beacon_capture_prompt_version).
DROP TRIGGER IF EXISTS captures_prompt_version ON public.captures;
CREATE TRIGGER captures_prompt_version
BEFORE INSERT ON public.captures
FOR EACH ROW
EXECUTE FUNCTION beacon_capture_prompt_version();
