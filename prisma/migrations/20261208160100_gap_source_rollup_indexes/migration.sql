-- The gap sources chart reads its top domains from the rows with name '' of a range, and the
-- competitors of those domains alone: without these it read every competitor row of the range
-- (the primary key leads with the day and provider, then the domain).
CREATE INDEX "rollup_gap_sources_workspaceId_brandId_name_day_idx" ON "rollup_gap_sources"("workspaceId", "brandId", "name", "day");
CREATE INDEX "rollup_gap_sources_workspaceId_brandId_domain_day_idx" ON "rollup_gap_sources"("workspaceId", "brandId", "domain", "day");
CREATE INDEX "rollup_gap_source_prompts_workspaceId_brandId_name_day_idx" ON "rollup_gap_source_prompts"("workspaceId", "brandId", "name", "day");
CREATE INDEX "rollup_gap_source_prompts_workspaceId_brandId_domain_day_idx" ON "rollup_gap_source_prompts"("workspaceId", "brandId", "domain", "day");
