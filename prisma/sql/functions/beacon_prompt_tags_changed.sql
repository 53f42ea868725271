-- Generated from ROLLUPS in lib/analytics/rollup-tables.ts by `npm run sql:generate`; do not edit.
-- Prompts' tags changed: each prompt's contribution leaves the tags it lost and joins those it
-- gained in every rollup with a tag, read from its family's rows per prompt and period (the same
-- counts, per prompt). Rows left at zero go, as a rebuild would not have them. Once per statement,
-- with the statement's changed prompts: their tag locks are taken in id order, as answers take
-- them (beacon_rollup_captures), so a re-tagging of many prompts at once cannot deadlock with a
-- re-analysis holding several.
CREATE OR REPLACE FUNCTION public.beacon_prompt_tags_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('prompt-tags:' || n.id, 0))
  FROM new_prompts n JOIN old_prompts o ON o.id = n.id
  WHERE o.tags IS DISTINCT FROM n.tags
  ORDER BY n.id;
  -- rollup_tag_domains, from rollup_citations.
  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s."providerConfigId", s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domains r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s."providerConfigId", s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_domain_weeks, from rollup_citations.
  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, date_trunc('week', s.day)::date, s."providerConfigId", s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, date_trunc('week', s.day)::date AS week, s."providerConfigId", s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_gap_sources, from rollup_gap_source_prompts.
  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s."providerConfigId", s.domain, s.name,
    sum(m.sign * s.answers),
    sum(m.sign * s."offSite")
  FROM moves m JOIN rollup_gap_source_prompts s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_sources r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s."providerConfigId", s.domain, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_gap_source_weeks, from rollup_gap_source_prompts.
  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, date_trunc('week', s.day)::date, s."providerConfigId", s.domain, s.name,
    sum(m.sign * s.answers),
    sum(m.sign * s."offSite")
  FROM moves m JOIN rollup_gap_source_prompts s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_source_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, date_trunc('week', s.day)::date AS week, s."providerConfigId", s.domain, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_domain_day_totals, from rollup_citations.
  INSERT INTO rollup_tag_domain_day_totals AS r ("workspaceId", "brandId", "tag", "day", "domain", "citations", "ownCitations")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations")
  FROM moves m JOIN rollup_citations s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_day_totals r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_cited_page_weeks, from rollup_cited_page_prompt_weeks.
  INSERT INTO rollup_tag_cited_page_weeks AS r ("workspaceId", "brandId", "tag", "week", "url", "domain", "citations", "ownCitations", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.week, s.url, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations"),
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_cited_page_prompt_weeks s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.week, s.url, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_cited_page_prompt_weeks s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r.url = k.url AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_cited_page_months, from rollup_cited_page_prompt_months.
  INSERT INTO rollup_tag_cited_page_months AS r ("workspaceId", "brandId", "tag", "month", "url", "domain", "citations", "ownCitations", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.month, s.url, s.domain,
    sum(m.sign * s.citations),
    sum(m.sign * s."ownCitations"),
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_cited_page_prompt_months s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "month", "url", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations",
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_cited_page_months r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.month, s.url, s.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_cited_page_prompt_months s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.month = k.month AND r.url = k.url AND r.domain = k.domain
    AND r.citations = 0;
  -- rollup_tag_candidates, from rollup_candidates.
  INSERT INTO rollup_tag_candidates AS r ("workspaceId", "brandId", "tag", "day", "key", "name", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.day, s.key, s.name,
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_candidates s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidates r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.day, s.key, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_candidates s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day AND r.key = k.key AND r.name = k.name
    AND r.answers = 0;
  -- rollup_tag_candidate_weeks, from rollup_candidate_prompt_weeks.
  INSERT INTO rollup_tag_candidate_weeks AS r ("workspaceId", "brandId", "tag", "week", "key", "name", "answers")
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  SELECT s."workspaceId", s."brandId", m.tag, s.week, s.key, s.name,
    sum(m.sign * s.answers)
  FROM moves m JOIN rollup_candidate_prompt_weeks s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "key", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers";
  DELETE FROM rollup_tag_candidate_weeks r
  USING (
    SELECT DISTINCT s."workspaceId", s."brandId", x.tag, s.week, s.key, s.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_candidate_prompt_weeks s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week AND r.key = k.key AND r.name = k.name
    AND r.answers = 0;
  RETURN NULL;
END
$function$;
