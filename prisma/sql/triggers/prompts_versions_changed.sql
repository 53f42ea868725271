-- A prompt's wording edited: a new version (beacon_prompt_versions); its captures keep theirs.
DROP TRIGGER IF EXISTS prompts_versions_changed ON public.prompts;
CREATE TRIGGER prompts_versions_changed
AFTER UPDATE ON public.prompts
REFERENCING OLD TABLE AS old_prompts NEW TABLE AS new_prompts
FOR EACH STATEMENT
EXECUTE FUNCTION beacon_prompt_versions();
-- Also with session_replication_role = replica (bulk copies with the other triggers off): a prompt
-- without its version would leave its next captures without one.
ALTER TABLE public.prompts ENABLE ALWAYS TRIGGER prompts_versions_changed;
