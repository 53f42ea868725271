-- Google AI Overviews and Google AI Mode, read through a SERP data API (DataForSEO or SerpApi).
ALTER TYPE "ProviderAdapter" ADD VALUE 'google_ai_overview';
ALTER TYPE "ProviderAdapter" ADD VALUE 'google_ai_mode';
