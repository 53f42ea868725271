-- A prompt's wording (text, country, city, language) as each capture asked it. Editing a prompt
-- adds a version (trigger prompts_versions); a capture keeps the version that was current when
-- its check was created (trigger captures_prompt_version), so a queued capture, its retries and
-- the money held and charged for its calls use the question the check asked, and the capture
-- shows it after the prompt was reworded.
CREATE TABLE "prompt_versions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workspaceId" UUID NOT NULL,
    "promptId" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "country" TEXT,
    "city" TEXT,
    "language" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "prompt_versions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "prompt_versions_promptId_number_key" ON "prompt_versions"("promptId", "number");

ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_workspaceId_fkey"
  FOREIGN KEY ("workspaceId") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_promptId_fkey"
  FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every prompt's wording today is its first version; the captures made so far asked it.
INSERT INTO "prompt_versions" ("workspaceId", "promptId", "number", "text", "country", "city", "language", "createdAt")
SELECT "workspaceId", id, 1, text, country, city, language, "createdAt" FROM prompts;

ALTER TABLE "captures" ADD COLUMN "promptVersionId" UUID;
UPDATE captures c SET "promptVersionId" = v.id FROM prompt_versions v WHERE v."promptId" = c."promptId";
ALTER TABLE "captures" ALTER COLUMN "promptVersionId" SET NOT NULL;
ALTER TABLE "captures" ADD CONSTRAINT "captures_promptVersionId_fkey"
  FOREIGN KEY ("promptVersionId") REFERENCES "prompt_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
