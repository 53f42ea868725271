-- A prompt's wording changed (or the prompt was created): a new version, numbered after the
-- last. Once per statement, with its changed prompts (a pasted list inserts many at once). A
-- prompt's edits queue on its row lock, so the next number is read after the previous commit.
CREATE OR REPLACE FUNCTION public.beacon_prompt_versions()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO prompt_versions ("workspaceId", "promptId", number, text, country, city, language)
    SELECT n."workspaceId", n.id, 1, n.text, n.country, n.city, n.language FROM new_prompts n;
  ELSE
    INSERT INTO prompt_versions ("workspaceId", "promptId", number, text, country, city, language)
    SELECT n."workspaceId", n.id, coalesce((SELECT max(v.number) FROM prompt_versions v WHERE v."promptId" = n.id), 0) + 1,
           n.text, n.country, n.city, n.language
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    WHERE (o.text, o.country, o.city, o.language) IS DISTINCT FROM (n.text, n.country, n.city, n.language);
  END IF;
  RETURN NULL;
END $function$;
