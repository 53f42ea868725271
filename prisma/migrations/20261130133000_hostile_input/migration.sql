-- Hostile input (issue 9, item 6).

-- The analysis reads at most the first 200,000 characters of an answer
-- (lib/analysis/analyze.ts); a capture whose answer was longer says so.
ALTER TABLE "captures" ADD COLUMN "analysisTruncated" BOOLEAN NOT NULL DEFAULT false;

-- Prompts are looked up by text, ignoring case, when a check is created with ad-hoc texts
-- (lib/prompts/prompts.ts findPromptsByText): one probe per text instead of a scan of the
-- workspace's prompts. Expression and partial, so not declarable in schema.prisma (see the
-- allowlist in tests/support/schema-diff.ts).
CREATE INDEX "prompts_live_text_idx" ON "prompts" ("workspaceId", lower("text")) WHERE "deletedAt" IS NULL;
