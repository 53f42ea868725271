-- Generated from ROLLUPS in lib/analytics/rollup-tables.ts by `npm run sql:generate`; do not edit.
-- Stages a capture's contribution (sign 1) or its removal (-1) to every rollup in the rewrite's
-- temporary tables (pg_temp.<rollup>_change), as beacon_rollup_captures would write it, for the
-- rollups whose family reads one of `sources` (mentions, citations, candidates: what the rewrite changes).
CREATE OR REPLACE FUNCTION public.beacon_rollup_stage(ids uuid[], sign integer, sources text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- The prompts' tags are read below (the rollups with a tag): shared with other writers of the
  -- rollups, exclusive for a change of the prompt's tags (beacon_prompt_tags_changed), taken
  -- before any rollup row, in id order.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('prompt-tags:' || p.id, 0))
  FROM (SELECT DISTINCT c."promptId" AS id FROM captures c WHERE c.id = ANY(ids) ORDER BY 1) p;
  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_answers_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_answers_change (LIKE rollup_answers INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_answers_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId", c."costMicros"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  per_capture AS (
    SELECT cap.*, b."captureId" IS NOT NULL AS analysed, coalesce(b.mentioned, false) AS mentioned, b.position, b.sentiment,
      coalesce(b.y, 0)::bigint AS y, coalesce(x.x, 0)::bigint AS x,
      EXISTS (SELECT 1 FROM citations ci WHERE ci."captureId" = cap.id AND ci."isOwnDomain" AND ci."citedInText") AS own
    FROM cap
    LEFT JOIN (
      SELECT m."captureId", bool_or(m.mentioned) AS mentioned,
        min(m.position) FILTER (WHERE m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.mentioned) AS sentiment,
        sum(m.count) AS y
      FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
      GROUP BY 1
    ) b ON b."captureId" = cap.id
    LEFT JOIN (SELECT m."captureId", sum(m.count) AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1) x ON x."captureId" = cap.id
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId",
    sign * count(*),
    sign * sum("costMicros"),
    sign * count(*) FILTER (WHERE analysed),
    sign * count(*) FILTER (WHERE analysed AND mentioned),
    sign * count(position) FILTER (WHERE analysed),
    sign * coalesce(sum(position) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(position::bigint * position) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 1),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 2),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 3),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position = 4),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND position >= 5),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'positive'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'neutral'),
    sign * count(*) FILTER (WHERE analysed AND mentioned AND sentiment = 'negative'),
    sign * coalesce(sum(y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(y * y) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * x) FILTER (WHERE analysed), 0),
    sign * coalesce(sum(x * y) FILTER (WHERE analysed), 0),
    sign * count(*) FILTER (WHERE own)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5
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
  END IF;

  IF sources && ARRAY['mentions']::text[] THEN
  IF to_regclass('pg_temp.rollup_mentions_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_mentions_change (LIKE rollup_mentions INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_mentions_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "sumYY", "sumXY", "ahead", "instead")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  b AS (
    SELECT m."captureId", bool_or(m.mentioned) AS mentioned, min(m.position) FILTER (WHERE m.mentioned) AS position
    FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
    GROUP BY 1
  ),
  x AS (SELECT m."captureId", sum(m.count)::bigint AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1),
  per_capture AS (
    SELECT cap."workspaceId", cap."brandId", cap.day, cap."providerConfigId", cap."promptId",
      CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
      max(m.name) AS name,
      count(*) AS rows,
      coalesce(sum(m.count), 0)::bigint AS y,
      min(x.x) AS x,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND (NOT b.mentioned OR m.position < b.position)) AS ahead,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND NOT b.mentioned) AS instead
    FROM cap
    JOIN mentions m ON m."captureId" = cap.id
    JOIN x ON x."captureId" = cap.id
    LEFT JOIN b ON b."captureId" = cap.id
    GROUP BY cap.id, 1, 2, 3, 4, 5, 6
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", entity,
    CASE WHEN sign > 0 THEN max(name) ELSE '' END,
    sign * sum(rows),
    sign * sum(y),
    sign * sum(y * y),
    sign * sum(x * y),
    sign * sum(ahead),
    sign * sum(instead)
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "sumYY" = r."sumYY" + excluded."sumYY",
      "sumXY" = r."sumXY" + excluded."sumXY",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_citations_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_citations_change (LIKE rollup_citations INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_citations_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_own_pages_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_own_pages_change (LIKE rollup_own_pages INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_own_pages_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain", "citations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_days_change (LIKE rollup_cited_page_prompt_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_days_change AS r ("workspaceId", "brandId", "day", "promptId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_weeks_change (LIKE rollup_cited_page_prompt_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_weeks_change AS r ("workspaceId", "brandId", "week", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_prompt_months_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_prompt_months_change (LIKE rollup_cited_page_prompt_months INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "month", "promptId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_prompt_months_change AS r ("workspaceId", "brandId", "month", "promptId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, c."promptId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "month", "promptId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_source_prompts_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_source_prompts_change (LIKE rollup_gap_source_prompts INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_source_prompts_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidates_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidates_change (LIKE rollup_candidates INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidates_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_days_change (LIKE rollup_candidate_prompt_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_days_change AS r ("workspaceId", "brandId", "day", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_weeks_change (LIKE rollup_candidate_prompt_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_weeks_change AS r ("workspaceId", "brandId", "week", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_prompt_provider_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_prompt_provider_weeks_change (LIKE rollup_candidate_prompt_provider_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_prompt_provider_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", c."promptId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "promptId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domains_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domains_change (LIKE rollup_tag_domains INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domains_change AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domain_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domain_weeks_change (LIKE rollup_tag_domain_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domain_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_gap_sources_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_gap_sources_change (LIKE rollup_tag_gap_sources INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_gap_sources_change AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_gap_source_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_gap_source_weeks_change (LIKE rollup_tag_gap_source_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_gap_source_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", tag, week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domains_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domains_change (LIKE rollup_domains INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domains_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domain_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domain_weeks_change (LIKE rollup_domain_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domain_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_pages_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_pages_change (LIKE rollup_cited_pages INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_pages_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "title", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END,
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "title" = CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END,
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_weeks_change (LIKE rollup_cited_page_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_sources_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_sources_change (LIKE rollup_gap_sources INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_sources_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", day, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['mentions', 'citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_gap_source_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_gap_source_weeks_change (LIKE rollup_gap_source_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_gap_source_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH gap AS (
    SELECT c.id, c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date AS week, c."providerConfigId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )
  SELECT "workspaceId", "brandId", week, "providerConfigId", domain, name,
    sign * count(*),
    sign * count(*) FILTER (WHERE off)
  FROM per_answer
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_days_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_days_change (LIKE rollup_candidate_days INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_days_change AS r ("workspaceId", "brandId", "day", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_weeks_change (LIKE rollup_candidate_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "providerConfigId", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_weeks_change AS r ("workspaceId", "brandId", "week", "providerConfigId", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, c."providerConfigId", k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "week", "providerConfigId", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_domain_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_domain_day_totals_change (LIKE rollup_tag_domain_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_domain_day_totals_change AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_cited_page_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_cited_page_weeks_change (LIKE rollup_tag_cited_page_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_cited_page_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_cited_page_months_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_cited_page_months_change (LIKE rollup_tag_cited_page_months INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "month", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_cited_page_months_change AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_candidates_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_candidates_change (LIKE rollup_tag_candidates INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_candidates_change AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_tag_candidate_weeks_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_tag_candidate_weeks_change (LIKE rollup_tag_candidate_weeks INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "tag", "week", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_tag_candidate_weeks_change AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", t.tag, date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN prompts p ON p.id = c."promptId"
  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_domain_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_domain_day_totals_change (LIKE rollup_domain_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_domain_day_totals_change AS r ("workspaceId", "brandId", "day", "domain", "citations", "ownCitations")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain")
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("workspaceId", "brandId", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_day_totals_change (LIKE rollup_cited_page_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_day_totals_change AS r ("workspaceId", "brandId", "day", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_week_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_week_totals_change (LIKE rollup_cited_page_week_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_week_totals_change AS r ("workspaceId", "brandId", "week", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['citations']::text[] THEN
  IF to_regclass('pg_temp.rollup_cited_page_month_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_cited_page_month_totals_change (LIKE rollup_cited_page_month_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "month", "url", "domain")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_cited_page_month_totals_change AS r ("workspaceId", "brandId", "month", "url", "domain", "citations", "ownCitations", "answers", "titleAt")
  SELECT c."workspaceId", c."brandId", date_trunc('month', c."finishedAt")::date, ci.url, ci.domain,
    sign * count(*),
    sign * count(*) FILTER (WHERE ci."isOwnDomain"),
    sign * count(DISTINCT c.id),
    CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END
  FROM captures c
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/')
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers",
      "titleAt" = greatest(r."titleAt", excluded."titleAt");
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_day_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_day_totals_change (LIKE rollup_candidate_day_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "day", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_day_totals_change AS r ("workspaceId", "brandId", "day", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;

  IF sources && ARRAY['candidates']::text[] THEN
  IF to_regclass('pg_temp.rollup_candidate_week_totals_change') IS NULL THEN
    CREATE TEMPORARY TABLE rollup_candidate_week_totals_change (LIKE rollup_candidate_week_totals INCLUDING DEFAULTS, PRIMARY KEY ("workspaceId", "brandId", "week", "key", "name")) ON COMMIT DROP;
  END IF;
  INSERT INTO pg_temp.rollup_candidate_week_totals_change AS r ("workspaceId", "brandId", "week", "key", "name", "answers")
  SELECT c."workspaceId", c."brandId", date_trunc('week', c."finishedAt")::date, k.key, k.name,
    sign * count(*)
  FROM captures c
  JOIN capture_candidates k ON k."captureId" = c.id
  WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  END IF;
END
$function$;
