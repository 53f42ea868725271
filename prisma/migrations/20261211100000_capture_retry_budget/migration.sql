-- A capture's retry budget on its own row: attempts ended failed or unknown ("spent", what
-- maxAttempts bounds) and, of those, the unknown ones (what unknownRetries bounds), counted by
-- the statement that ends an attempt (beacon_close_attempt). They used to be counted from the
-- attempts table, which the hourly retention deletes from: a capture retried after it ran got
-- a fresh budget and paid the provider again (tests/integration/retry-budget.test.ts).
ALTER TABLE "captures" ADD COLUMN "spentAttempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "unknownAttempts" INTEGER NOT NULL DEFAULT 0;

-- Backfilled from the attempts left. What retention already deleted cannot be told apart: each
-- missing attempt counts as spent (the safe side: a capture retries less, never more). For a
-- capture that may still run (unfinished) that is capped at maxAttempts, so it fails at its next
-- failure rather than at once; a finished one keeps it all, since an admin retry allows
-- attemptCount + a fresh allowance (lib/lifecycle/admin.ts).
UPDATE captures c SET "spentAttempts" = k.spent, "unknownAttempts" = k.unknown
FROM (
  SELECT c.id,
         CASE WHEN c.status IN ('queued', 'retry_wait', 'postponed', 'running')
              THEN least(greatest(c."maxAttempts", count(a.id) FILTER (WHERE a.outcome IN ('failed', 'unknown'))),
                         count(a.id) FILTER (WHERE a.outcome IN ('failed', 'unknown')) + greatest(0, c."attemptCount" - count(a.id)))
              ELSE count(a.id) FILTER (WHERE a.outcome IN ('failed', 'unknown')) + greatest(0, c."attemptCount" - count(a.id)) END AS spent,
         count(a.id) FILTER (WHERE a.outcome = 'unknown') AS unknown
  FROM captures c LEFT JOIN attempts a ON a."captureId" = c.id
  WHERE c."attemptCount" > 0
  GROUP BY c.id
) k
WHERE c.id = k.id AND (k.spent > 0 OR k.unknown > 0);
