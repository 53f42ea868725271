-- Gemini cites through redirect links (https://vertexaisearch.cloud.google.com/grounding-api-redirect/<token>)
-- that name a site, not a page: each answer gets a token of its own, so each link was a "page"
-- of its own in the per-page rollups, listed on the Traffic funnel as a page of the brand's
-- (under the redirect's host, "cited but not crawled") and among own and cited pages. The
-- per-page rollups now leave them out (lib/analytics/rollup-tables.ts, beacon_rollup_captures);
-- their rows are taken out here. They still count for their domain (the domain rollups).
DELETE FROM "rollup_own_pages" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_pages" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_weeks" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_day_totals" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_week_totals" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_month_totals" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_prompt_days" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_prompt_weeks" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_cited_page_prompt_months" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_tag_cited_page_weeks" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
DELETE FROM "rollup_tag_cited_page_months" WHERE starts_with(url, 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/');
