-- Top domains with a tag filter (issue 10): the chart read rollup_citations, which keeps the
-- prompt, and at a million captures a 90-day range of a tag's prompts was 180,000 rows sorted on
-- disk (400 ms). rollup_tag_domains keeps the citations per tag instead of per prompt: a prompt's
-- captures count under each of its tags (once per tag). A filter on one tag reads it; a filter on
-- several tags still reads rollup_citations (a prompt with two of the tags must count once).
--
-- It follows the prompts' current tags: beacon_rollup_captures adds a capture under its prompt's
-- tags, and a change of a prompt's tags moves the prompt's contribution (its rollup_citations
-- rows) from the tags it lost to the tags it gained (trigger below). The two are ordered by an
-- advisory lock per prompt, so a capture recorded while its prompt is being re-tagged lands under
-- the tags the re-tagging leaves.

CREATE TABLE "rollup_tag_domains" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_tag_domains_pkey" PRIMARY KEY ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain")
);
ALTER TABLE "rollup_tag_domains" ADD CONSTRAINT "rollup_tag_domains_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_domains" ADD CONSTRAINT "rollup_tag_domains_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_tag_domains" ADD CONSTRAINT "rollup_tag_domains_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A capture's contribution, as in 20261201130000_analytics_rollups, now also under its prompt's
-- tags (last, in key order: the lock order of the rollups).
CREATE OR REPLACE FUNCTION beacon_rollup_captures(ids UUID[], sign INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The prompts' tags are read below (rollup_tag_domains): shared with other writers of the
  -- rollups, exclusive for a change of the prompt's tags (beacon_prompt_tags_changed), taken
  -- before any rollup row, in id order.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('prompt-tags:' || p.id, 0))
  FROM (SELECT DISTINCT c."promptId" AS id FROM captures c WHERE c.id = ANY(ids) ORDER BY 1) p;
  INSERT INTO rollup_answers AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "captures", "costMicros", "answers", "mentioned", "positionN", "positionSum", "positionSumSq", "position1", "position2", "position3", "position4", "position5Plus", "positive", "neutral", "negative", "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn")
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

  INSERT INTO rollup_mentions AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity", "name", "rows", "mentions", "ahead", "instead")
  WITH cap AS (
    SELECT c.id, c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId"
    FROM captures c
    WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  ),
  b AS (
    SELECT m."captureId", bool_or(m.mentioned) AS mentioned, min(m.position) FILTER (WHERE m.mentioned) AS position
    FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
    GROUP BY 1
  )
  SELECT cap."workspaceId", cap."brandId", cap.day, cap."providerConfigId", cap."promptId",
    CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END,
    max(m.name),
    sign * count(*),
    sign * coalesce(sum(m.count), 0),
    sign * count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND (NOT b.mentioned OR m.position < b.position)),
    sign * count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND NOT b.mentioned)
  FROM cap
  JOIN mentions m ON m."captureId" = cap.id
  LEFT JOIN b ON b."captureId" = cap.id
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity") DO UPDATE SET
      "name" = CASE WHEN excluded."rows" > 0 THEN excluded."name" ELSE r."name" END,
      "rows" = r."rows" + excluded."rows",
      "mentions" = r."mentions" + excluded."mentions",
      "ahead" = r."ahead" + excluded."ahead",
      "instead" = r."instead" + excluded."instead";

  INSERT INTO rollup_citations AS r ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain", "citations", "ownCitations")
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

  INSERT INTO rollup_domains AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations")
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

  INSERT INTO rollup_tag_domains AS r ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
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
END
$$;

-- Prompts' tags changed: each prompt's contribution leaves the tags it lost and joins those it
-- gained, from its rollup_citations rows (the same counts, per prompt). Rows left at zero go, as
-- a rebuild would not have them. Once per statement, with the statement's changed prompts: their
-- tag locks are taken in id order, as answers take them (beacon_rollup_captures), so a re-tagging
-- of many prompts at once cannot deadlock with a re-analysis holding several.
CREATE FUNCTION beacon_prompt_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NULL;
END $$;

CREATE TRIGGER "prompts_tags_rollup" AFTER UPDATE ON "prompts"
  REFERENCING OLD TABLE AS old_prompts NEW TABLE AS new_prompts
  FOR EACH STATEMENT EXECUTE FUNCTION beacon_prompt_tags_changed();

-- Backfill from rollup_citations, per the prompts' current tags.
INSERT INTO rollup_tag_domains ("workspaceId", "brandId", "tag", "day", "providerConfigId", "domain", "citations", "ownCitations")
SELECT rc."workspaceId", rc."brandId", t.tag, rc.day, rc."providerConfigId", rc.domain, sum(rc.citations), sum(rc."ownCitations")
FROM rollup_citations rc
JOIN prompts p ON p.id = rc."promptId"
CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t
GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(rc.citations) <> 0 OR sum(rc."ownCitations") <> 0;
