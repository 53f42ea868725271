-- Daily rollups for the dashboards (issue 10): at a million captures the Overview's queries
-- scanned mentions and citations for seconds. The rollup tables hold additive counts and sums per
-- workspace, brand, UTC day of the capture's finish, provider and prompt (rollup_answers), and
-- per entity (rollup_mentions) and cited domain (rollup_citations, and rollup_domains without the
-- prompt, for the top domains chart when no tag filter needs the prompt) of those, so a range of days
-- adds up to exactly what the raw rows give, the sums behind the 95 % intervals included.

CREATE TABLE "rollup_answers" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "captures" INTEGER NOT NULL DEFAULT 0,
    "costMicros" BIGINT NOT NULL DEFAULT 0,
    "answers" INTEGER NOT NULL DEFAULT 0,
    "mentioned" INTEGER NOT NULL DEFAULT 0,
    "positionN" INTEGER NOT NULL DEFAULT 0,
    "positionSum" BIGINT NOT NULL DEFAULT 0,
    "positionSumSq" BIGINT NOT NULL DEFAULT 0,
    "position1" INTEGER NOT NULL DEFAULT 0,
    "position2" INTEGER NOT NULL DEFAULT 0,
    "position3" INTEGER NOT NULL DEFAULT 0,
    "position4" INTEGER NOT NULL DEFAULT 0,
    "position5Plus" INTEGER NOT NULL DEFAULT 0,
    "positive" INTEGER NOT NULL DEFAULT 0,
    "neutral" INTEGER NOT NULL DEFAULT 0,
    "negative" INTEGER NOT NULL DEFAULT 0,
    "sumY" BIGINT NOT NULL DEFAULT 0,
    "sumX" BIGINT NOT NULL DEFAULT 0,
    "sumYY" BIGINT NOT NULL DEFAULT 0,
    "sumXX" BIGINT NOT NULL DEFAULT 0,
    "sumXY" BIGINT NOT NULL DEFAULT 0,
    "citingOwn" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_answers_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId")
);
ALTER TABLE "rollup_answers" ADD CONSTRAINT "rollup_answers_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_answers" ADD CONSTRAINT "rollup_answers_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_answers" ADD CONSTRAINT "rollup_answers_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_answers" ADD CONSTRAINT "rollup_answers_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_mentions" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "entity" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "mentions" BIGINT NOT NULL DEFAULT 0,
    "ahead" INTEGER NOT NULL DEFAULT 0,
    "instead" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_mentions_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "entity")
);
ALTER TABLE "rollup_mentions" ADD CONSTRAINT "rollup_mentions_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_mentions" ADD CONSTRAINT "rollup_mentions_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_mentions" ADD CONSTRAINT "rollup_mentions_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_mentions" ADD CONSTRAINT "rollup_mentions_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_citations" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_citations_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "promptId", "domain")
);
ALTER TABLE "rollup_citations" ADD CONSTRAINT "rollup_citations_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_citations" ADD CONSTRAINT "rollup_citations_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_citations" ADD CONSTRAINT "rollup_citations_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "rollup_citations" ADD CONSTRAINT "rollup_citations_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "rollup_domains" (
    "workspaceId" UUID NOT NULL,
    "brandId" UUID NOT NULL,
    "day" DATE NOT NULL,
    "providerConfigId" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "citations" INTEGER NOT NULL DEFAULT 0,
    "ownCitations" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rollup_domains_pkey" PRIMARY KEY ("workspaceId", "brandId", "day", "providerConfigId", "domain")
);
ALTER TABLE "rollup_domains" ADD CONSTRAINT "rollup_domains_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_domains" ADD CONSTRAINT "rollup_domains_brandId_fkey" FOREIGN KEY ("brandId") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rollup_domains" ADD CONSTRAINT "rollup_domains_providerConfigId_fkey" FOREIGN KEY ("providerConfigId") REFERENCES "provider_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The one definition of a capture's contribution, read from its raw rows: added (sign 1) when a
-- capture succeeds with its analysis, taken away (sign -1) and added again around anything that
-- rewrites its raw rows (re-analysis, a competitor's removal). Only succeeded captures count.
-- Every row is a sum, so concurrent captures of the same day, provider and prompt add up
-- (INSERT .. ON CONFLICT takes the row's lock). Lock order: the rollup_answers rows of the
-- captures first, in key order, then their rollup_mentions rows, then their rollup_citations
-- rows, then their rollup_domains rows, each in key order; every caller goes through this function, so two callers that share a
-- day, provider and prompt meet first at that rollup_answers row and never hold each other's
-- later rows.
CREATE FUNCTION beacon_rollup_captures(ids UUID[], sign INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
END
$$;

-- The history so far: every succeeded capture once.
SELECT beacon_rollup_captures(coalesce(array_agg(id), '{}'), 1) FROM captures WHERE status = 'succeeded';
