-- Prompts' tags changed: each prompt's contribution leaves the tags it lost and joins those it
-- gained, from its rollup_citations rows (the same counts, per prompt). Rows left at zero go, as
-- a rebuild would not have them. Once per statement, with the statement's changed prompts: their
-- tag locks are taken in id order, as answers take them (beacon_rollup_captures), so a re-tagging
-- of many prompts at once cannot deadlock with a re-analysis holding several.
DROP TRIGGER IF EXISTS prompts_tags_rollup ON public.prompts;
CREATE TRIGGER prompts_tags_rollup
AFTER UPDATE ON public.prompts
REFERENCING OLD TABLE AS old_prompts NEW TABLE AS new_prompts
FOR EACH STATEMENT
EXECUTE FUNCTION beacon_prompt_tags_changed();
