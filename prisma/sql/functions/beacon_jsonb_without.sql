-- A JSON array of ids without `ids`, in its order ('[]' when none is left, or it was not an
-- array): how a removed thing leaves the lists that name it (a schedule's picked prompts,
-- lib/schedules/schedules.ts dropArchivedPrompts; an alert rule's competitors,
-- lib/alerts/rules.ts forgetCompetitors).
CREATE OR REPLACE FUNCTION public.beacon_jsonb_without(list jsonb, ids text[])
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT coalesce((SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(list) = 'array' THEN list ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, n) WHERE e <> ALL(ids)), '[]'::jsonb)
$function$;
