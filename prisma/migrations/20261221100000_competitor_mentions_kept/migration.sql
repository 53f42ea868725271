-- A competitor's removal no longer deletes its mention rows with it (lib/brands/brands.ts): every
-- answer of the brand has one (named or not), so the cascade, and the rollup rewrite it needed,
-- made a brand edit rewrite the whole history in its request: many minutes at a million answers,
-- past the transaction's timeout. The rows stay until the re-analysis the edit queues rewrites each
-- answer without them (the new analysis has no row for the competitor), as it does for any change
-- of the brand's inputs. A mention's competitorId may therefore name a competitor removed since,
-- until that run passes; readers resolve names from the rows they read.
ALTER TABLE "mentions" DROP CONSTRAINT "mentions_competitorId_fkey";
