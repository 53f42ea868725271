-- A capture whose paid answer could not be stored may not be retried (a retry would pay again).
-- That was read from its attempt (reason result_not_stored), which the hourly retention deletes;
-- now it is on the capture row, set by beacon_close_attempt (lib/lifecycle/admin.ts retryRefusals).
ALTER TABLE "captures" ADD COLUMN "paidAnswerLost" BOOLEAN NOT NULL DEFAULT false;

-- Backfilled from the attempts left, and, where retention deleted the attempt, from the reason a
-- failed capture still shows (run-capture.ts failUnstorable).
UPDATE captures c SET "paidAnswerLost" = true
WHERE EXISTS (SELECT 1 FROM attempts a WHERE a."captureId" = c.id AND a.reason = 'result_not_stored')
   OR (c.status = 'failed' AND c."lastError" LIKE 'The answer could not be stored (%');
