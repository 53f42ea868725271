-- The Jobs page lists a workspace's captures newest first, a page at a time: without this index
-- each page sorted every capture of the workspace (650 ms at a million captures).
CREATE INDEX "captures_workspaceId_createdAt_sample_id_idx" ON "captures"("workspaceId", "createdAt" DESC, "sample", "id");
