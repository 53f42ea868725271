-- A new capture asks its prompt's current version (the wording its check was created with:
-- createCheck holds its prompts FOR SHARE, so no edit commits in between). Every way captures
-- are inserted gets it here, once.
CREATE OR REPLACE FUNCTION public.beacon_capture_prompt_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW."promptVersionId" IS NULL THEN
    SELECT v.id INTO NEW."promptVersionId" FROM prompt_versions v WHERE v."promptId" = NEW."promptId" ORDER BY v.number DESC LIMIT 1;
  END IF;
  RETURN NEW;
END $function$;
