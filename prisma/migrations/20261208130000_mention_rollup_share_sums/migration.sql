-- Share of voice per entity with its 95 % interval (issue 19): the delta-method variance of an
-- entity's share Σy / Σx over answers needs, besides the answers' n, Σx and Σx² (rollup_answers),
-- the entity's Σy² and Σxy, y being its mentions in an answer and x all tracked mentions there.
-- beacon_rollup_captures (prisma/sql/functions) keeps them from now on; existing rows are filled
-- from the raw rows they were built from.
ALTER TABLE "rollup_mentions" ADD COLUMN "sumYY" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "sumXY" BIGINT NOT NULL DEFAULT 0;

WITH x AS (
  SELECT m."captureId", sum(m.count)::bigint AS x FROM mentions m GROUP BY 1
),
per_capture AS (
  SELECT c."workspaceId", c."brandId", c."finishedAt"::date AS day, c."providerConfigId", c."promptId",
    CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
    coalesce(sum(m.count), 0)::bigint AS y, min(x.x) AS x
  FROM captures c
  JOIN mentions m ON m."captureId" = c.id
  JOIN x ON x."captureId" = c.id
  WHERE c.status = 'succeeded' AND c."finishedAt" IS NOT NULL
  GROUP BY c.id, 1, 2, 3, 4, 5, 6
),
sums AS (
  SELECT "workspaceId", "brandId", day, "providerConfigId", "promptId", entity, sum(y * y)::bigint AS yy, sum(x * y)::bigint AS xy
  FROM per_capture
  GROUP BY 1, 2, 3, 4, 5, 6
)
UPDATE "rollup_mentions" r SET "sumYY" = s.yy, "sumXY" = s.xy
FROM sums s
WHERE r."workspaceId" = s."workspaceId" AND r."brandId" = s."brandId" AND r.day = s.day
  AND r."providerConfigId" = s."providerConfigId" AND r."promptId" = s."promptId" AND r.entity = s.entity;
