-- One live prompt per text (ignoring case) in a workspace, as the database's rule: every writer
-- looked for the text and then inserted, with no lock between, so two requests adding the same new
-- question at once (two REST checks, two pastes) each made one. Their history was split between
-- the two, later requests reused only the older, and neither could be edited.
--
-- Prompts that already share a live text keep the oldest; the others are archived (as a person's
-- delete does: their checks and answers keep their question). Then prompts_live_text_idx becomes
-- unique; writers insert with ON CONFLICT DO NOTHING and read the winner (lib/prompts/prompts.ts).
UPDATE prompts p SET "deletedAt" = now(), "updatedAt" = now()
FROM (
  SELECT id, row_number() OVER (PARTITION BY "workspaceId", lower(text) ORDER BY "createdAt", id) AS n
  FROM prompts WHERE "deletedAt" IS NULL
) d
WHERE p.id = d.id AND d.n > 1;

DROP INDEX "prompts_live_text_idx";
CREATE UNIQUE INDEX "prompts_live_text_idx" ON "prompts" ("workspaceId", lower("text")) WHERE "deletedAt" IS NULL;
