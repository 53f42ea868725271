-- A new prompt's first version (beacon_prompt_versions).
DROP TRIGGER IF EXISTS prompts_versions_inserted ON public.prompts;
CREATE TRIGGER prompts_versions_inserted
AFTER INSERT ON public.prompts
REFERENCING NEW TABLE AS new_prompts
FOR EACH STATEMENT
EXECUTE FUNCTION beacon_prompt_versions();
-- Also with session_replication_role = replica (bulk copies with the other triggers off): a prompt
-- without its version would leave its next captures without one.
ALTER TABLE public.prompts ENABLE ALWAYS TRIGGER prompts_versions_inserted;
