-- Generated from ROLLUPS in lib/analytics/rollup-tables.ts by `npm run sql:generate`; do not edit.
-- Writes what beacon_rollup_stage staged to the rollups, in the lock order, and empties the stage
-- (the rollups it staged: those with a stage table).
CREATE OR REPLACE FUNCTION public.beacon_rollup_apply_stage()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF to_regclass('pg_temp.rollup_answers_change') IS NOT NULL THEN
  INSERT INTO rollup_answers AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn" FROM pg_temp.rollup_answers_change s
  WHERE s."captures" <> 0 OR s."costMicros" <> 0 OR s."answers" <> 0 OR s."mentioned" <> 0 OR s."positionN" <> 0 OR s."positionSum" <> 0 OR s."positionSumSq" <> 0 OR s."position1" <> 0 OR s."position2" <> 0 OR s."position3" <> 0 OR s."position4" <> 0 OR s."position5Plus" <> 0 OR s."positive" <> 0 OR s."neutral" <> 0 OR s."negative" <> 0 OR s."sumY" <> 0 OR s."sumX" <> 0 OR s."sumYY" <> 0 OR s."sumXX" <> 0 OR s."sumXY" <> 0 OR s."citingOwn" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId") DO UPDATE SET
      "captures" = r."captures" + excluded."captures",
      "costMicros" = r."costMicros" + excluded."costMicros",
      "answers" = r."answers" + excluded."answers",
      "mentioned" = r."mentioned" + excluded."mentioned",
      "positionN" = r."positionN" + excluded."positionN",
      "positionSum" = r."positionSum" + excluded."positionSum",
      "positionSumSq" = r."positionSumSq" + excluded."positionSumSq",
      "position1" = r."position1" + excluded."position1",
      "position2" = r."position2" + excluded."position2",
      "position3" = r."position3" + excluded."position3",
      "position4" = r."position4" + excluded."position4",
      "position5Plus" = r."position5Plus" + excluded."position5Plus",
      "positive" = r."positive" + excluded."positive",
      "neutral" = r."neutral" + excluded."neutral",
      "negative" = r."negative" + excluded."negative",
      "sumY" = r."sumY" + excluded."sumY",
      "sumX" = r."sumX" + excluded."sumX",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXX" = r."sumXX" + excluded."sumXX",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "citingOwn" = r."citingOwn" + excluded."citingOwn";
  TRUNCATE pg_temp.rollup_answers_change;
  END IF;

  IF to_regclass('pg_temp.rollup_mentions_change') IS NOT NULL THEN
  INSERT INTO rollup_mentions AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead" FROM pg_temp.rollup_mentions_change s
  WHERE s."name" <> '' OR s."rows" <> 0 OR s."mentions" <> 0 OR s."sumYY" <> 0 OR s."sumXY" <> 0 OR s."ahead" <> 0 OR s."instead" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";
  DELETE FROM rollup_mentions r USING pg_temp.rollup_mentions_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.entity = s.entity AND r.rows = 0 AND (s."name" <> '' OR s."rows" <> 0 OR s."mentions" <> 0 OR s."sumYY" <> 0 OR s."sumXY" <> 0 OR s."ahead" <> 0 OR s."instead" <> 0);
  TRUNCATE pg_temp.rollup_mentions_change;
  END IF;

  IF to_regclass('pg_temp.rollup_citations_change') IS NOT NULL THEN
  INSERT INTO rollup_citations AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_citations_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_citations r USING pg_temp.rollup_citations_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_citations_change;
  END IF;

  IF to_regclass('pg_temp.rollup_own_pages_change') IS NOT NULL THEN
  INSERT INTO rollup_own_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt" FROM pg_temp.rollup_own_pages_change s
  WHERE s."citations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_own_pages r USING pg_temp.rollup_own_pages_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_own_pages_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_days_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt" FROM pg_temp.rollup_cited_page_prompt_days_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_days r USING pg_temp.rollup_cited_page_prompt_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_prompt_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_weeks r USING pg_temp.rollup_cited_page_prompt_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_prompt_months_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_prompt_months AS r ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_prompt_months_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "month", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_prompt_months r USING pg_temp.rollup_cited_page_prompt_months_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.month = s.month AND r."promptId" = s."promptId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_prompt_months_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_source_prompts_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_source_prompts AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_source_prompts_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_source_prompts r USING pg_temp.rollup_gap_source_prompts_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_source_prompts_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidates_change') IS NOT NULL THEN
  INSERT INTO rollup_candidates AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidates_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidates r USING pg_temp.rollup_candidates_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidates_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_days_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_days AS r ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_days_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_days r USING pg_temp.rollup_candidate_prompt_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_weeks AS r ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_weeks r USING pg_temp.rollup_candidate_prompt_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_prompt_provider_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_prompt_provider_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers" FROM pg_temp.rollup_candidate_prompt_provider_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_prompt_provider_weeks r USING pg_temp.rollup_candidate_prompt_provider_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_prompt_provider_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domains_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domains_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domains r USING pg_temp.rollup_tag_domains_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domains_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domain_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domain_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_weeks r USING pg_temp.rollup_tag_domain_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domain_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_gap_sources_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_tag_gap_sources_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_sources r USING pg_temp.rollup_tag_gap_sources_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_tag_gap_sources_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_gap_source_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_tag_gap_source_weeks_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_source_weeks r USING pg_temp.rollup_tag_gap_source_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_tag_gap_source_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domains_change') IS NOT NULL THEN
  INSERT INTO rollup_domains AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domains_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domains r USING pg_temp.rollup_domains_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domains_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domain_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_domain_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domain_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domain_weeks r USING pg_temp.rollup_domain_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domain_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_pages_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_pages AS r ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt" FROM pg_temp.rollup_cited_pages_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_pages r USING pg_temp.rollup_cited_pages_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_pages_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_weeks r USING pg_temp.rollup_cited_page_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_sources_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_sources AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_sources_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_sources r USING pg_temp.rollup_gap_sources_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_sources_change;
  END IF;

  IF to_regclass('pg_temp.rollup_gap_source_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_gap_source_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite" FROM pg_temp.rollup_gap_source_weeks_change s
  WHERE s."answers" <> 0 OR s."offSite" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_gap_source_weeks r USING pg_temp.rollup_gap_source_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.domain = s.domain AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0 OR s."offSite" <> 0);
  TRUNCATE pg_temp.rollup_gap_source_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_days_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_days AS r ("workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers" FROM pg_temp.rollup_candidate_days_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_days r USING pg_temp.rollup_candidate_days_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r."providerConfigId" = s."providerConfigId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_days_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_weeks AS r ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers" FROM pg_temp.rollup_candidate_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_weeks r USING pg_temp.rollup_candidate_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r."providerConfigId" = s."providerConfigId" AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_domain_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_domain_day_totals AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations" FROM pg_temp.rollup_tag_domain_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_day_totals r USING pg_temp.rollup_tag_domain_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_tag_domain_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_cited_page_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_cited_page_weeks AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  SELECT "workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers" FROM pg_temp.rollup_tag_cited_page_weeks_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_weeks r USING pg_temp.rollup_tag_cited_page_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_cited_page_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_cited_page_months_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_cited_page_months AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  SELECT "workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers" FROM pg_temp.rollup_tag_cited_page_months_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_months r USING pg_temp.rollup_tag_cited_page_months_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.month = s.month AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_cited_page_months_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_candidates_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_candidates AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "tag", "day", "key", "name", "answers" FROM pg_temp.rollup_tag_candidates_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidates r USING pg_temp.rollup_tag_candidates_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.day = s.day AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_candidates_change;
  END IF;

  IF to_regclass('pg_temp.rollup_tag_candidate_weeks_change') IS NOT NULL THEN
  INSERT INTO rollup_tag_candidate_weeks AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "tag", "week", "key", "name", "answers" FROM pg_temp.rollup_tag_candidate_weeks_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidate_weeks r USING pg_temp.rollup_tag_candidate_weeks_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.tag = s.tag AND r.week = s.week AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_tag_candidate_weeks_change;
  END IF;

  IF to_regclass('pg_temp.rollup_domain_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_domain_day_totals AS r ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
  SELECT "workspaceId", "brandId", "day", "domain", "citations", "ownCitations" FROM pg_temp.rollup_domain_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("workspaceId", "brandId", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_domain_day_totals r USING pg_temp.rollup_domain_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0);
  TRUNCATE pg_temp.rollup_domain_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_day_totals AS r ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_day_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_day_totals r USING pg_temp.rollup_cited_page_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_week_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_week_totals AS r ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_week_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_week_totals r USING pg_temp.rollup_cited_page_week_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_week_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_cited_page_month_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_cited_page_month_totals AS r ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT "workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt" FROM pg_temp.rollup_cited_page_month_totals_change s
  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  DELETE FROM rollup_cited_page_month_totals r USING pg_temp.rollup_cited_page_month_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.month = s.month AND r.url = s.url AND r.domain = s.domain AND r.citations = 0 AND (s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0);
  TRUNCATE pg_temp.rollup_cited_page_month_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_day_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_day_totals AS r ("workspaceId", "brandId", "day", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "day", "key", "name", "answers" FROM pg_temp.rollup_candidate_day_totals_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_day_totals r USING pg_temp.rollup_candidate_day_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_day_totals_change;
  END IF;

  IF to_regclass('pg_temp.rollup_candidate_week_totals_change') IS NOT NULL THEN
  INSERT INTO rollup_candidate_week_totals AS r ("workspaceId", "brandId", "week", "key", "name", "answers")
  SELECT "workspaceId", "brandId", "week", "key", "name", "answers" FROM pg_temp.rollup_candidate_week_totals_change s
  WHERE s."answers" <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_candidate_week_totals r USING pg_temp.rollup_candidate_week_totals_change s
  WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.week = s.week AND r.key = s.key AND r.name = s.name AND r.answers = 0 AND (s."answers" <> 0);
  TRUNCATE pg_temp.rollup_candidate_week_totals_change;
  END IF;
END
$function$;
