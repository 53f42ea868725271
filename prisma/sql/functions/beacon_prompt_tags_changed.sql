-- Prompts' tags changed: each prompt's contribution leaves the tags it lost and joins those it
-- gained, per day and per week (rollup_tag_domains, rollup_tag_domain_weeks), from its
-- rollup_citations rows (the same counts, per prompt). Rows left at zero go, as a rebuild would
-- not have them. Once per statement, with the statement's changed prompts: their
-- tag locks are taken in id order, as answers take them (beacon_rollup_captures), so a re-tagging
-- of many prompts at once cannot deadlock with a re-analysis holding several.
CREATE OR REPLACE FUNCTION public.beacon_prompt_tags_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('prompt-tags:' || n.id, 0))
  FROM new_prompts n JOIN old_prompts o ON o.id = n.id
  WHERE o.tags IS DISTINCT FROM n.tags
  ORDER BY n.id;
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT rc."workspaceId", rc."brandId", m.tag, rc.day, rc."providerConfigId", rc.domain, sum(m.sign * rc.citations), sum(m.sign * rc."ownCitations")
  FROM moves m JOIN rollup_citations rc ON rc."workspaceId" = m."workspaceId" AND rc."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domains r
  USING (
    SELECT DISTINCT rc."workspaceId", rc."brandId", x.tag, rc.day, rc."providerConfigId", rc.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations rc ON rc."workspaceId" = n."workspaceId" AND rc."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day
    AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.citations = 0 AND r."ownCitations" = 0;
  -- The same per week (rollup_tag_domain_weeks, 20261208100000_weekly_domain_and_own_page_rollups).
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  INSERT INTO rollup_tag_domain_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "citations", "ownCitations")
  SELECT rc."workspaceId", rc."brandId", m.tag, date_trunc('week', rc.day)::date, rc."providerConfigId", rc.domain, sum(m.sign * rc.citations), sum(m.sign * rc."ownCitations")
  FROM moves m JOIN rollup_citations rc ON rc."workspaceId" = m."workspaceId" AND rc."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain") DO UPDATE SET
      "citations" = r."citations" + excluded."citations",
      "ownCitations" = r."ownCitations" + excluded."ownCitations";
  DELETE FROM rollup_tag_domain_weeks r
  USING (
    SELECT DISTINCT rc."workspaceId", rc."brandId", x.tag, date_trunc('week', rc.day)::date AS week, rc."providerConfigId", rc.domain
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_citations rc ON rc."workspaceId" = n."workspaceId" AND rc."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week
    AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.citations = 0 AND r."ownCitations" = 0;
  -- The gap sources per tag (rollup_tag_gap_sources, 20261208160200_tag_gap_source_rollups), from
  -- their rows per prompt.
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  INSERT INTO rollup_tag_gap_sources AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT rg."workspaceId", rg."brandId", m.tag, rg.day, rg."providerConfigId", rg.domain, rg.name, sum(m.sign * rg.answers), sum(m.sign * rg."offSite")
  FROM moves m JOIN rollup_gap_source_prompts rg ON rg."workspaceId" = m."workspaceId" AND rg."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_sources r
  USING (
    SELECT DISTINCT rg."workspaceId", rg."brandId", x.tag, rg.day, rg."providerConfigId", rg.domain, rg.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts rg ON rg."workspaceId" = n."workspaceId" AND rg."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.day = k.day
    AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name AND r.answers = 0;
  -- The same per week (rollup_tag_gap_source_weeks, 20261208160300_weekly_gap_source_rollups).
  WITH moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )
  INSERT INTO rollup_tag_gap_source_weeks AS r ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name", "answers", "offSite")
  SELECT rg."workspaceId", rg."brandId", m.tag, date_trunc('week', rg.day)::date, rg."providerConfigId", rg.domain, rg.name, sum(m.sign * rg.answers), sum(m.sign * rg."offSite")
  FROM moves m JOIN rollup_gap_source_prompts rg ON rg."workspaceId" = m."workspaceId" AND rg."promptId" = m.id
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET
      "answers" = r."answers" + excluded."answers",
      "offSite" = r."offSite" + excluded."offSite";
  DELETE FROM rollup_tag_gap_source_weeks r
  USING (
    SELECT DISTINCT rg."workspaceId", rg."brandId", x.tag, date_trunc('week', rg.day)::date AS week, rg."providerConfigId", rg.domain, rg.name
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN rollup_gap_source_prompts rg ON rg."workspaceId" = n."workspaceId" AND rg."promptId" = n.id
  ) k
  WHERE r."workspaceId" = k."workspaceId" AND r."brandId" = k."brandId" AND r.tag = k.tag AND r.week = k.week
    AND r."providerConfigId" = k."providerConfigId" AND r.domain = k.domain AND r.name = k.name AND r.answers = 0;
  RETURN NULL;
END $function$;
