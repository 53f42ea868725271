-- A connection's adapter is text, validated by the engine registry (lib/providers/engines.ts)
-- through zod like every other input, so adding an engine needs no migration. No CHECK
-- constraint: the list of engines lives in one place, the code that knows how to call them.
ALTER TABLE "provider_connections" ALTER COLUMN "adapter" TYPE TEXT USING "adapter"::text;
DROP TYPE "ProviderAdapter";
