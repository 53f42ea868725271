-- Checks that finished before 20261210120000 added "retiredAttemptMicros" (at 0), and whose
-- attempts the retention pass had deleted by then: their charge counts those attempts and the
-- column did not, so the spend a check shows (retired + its attempts) came out short, and a retry
-- that finished it again recomputed its charge without them (lib/lifecycle/transition.ts
-- syncCheck). The difference is what retention deleted. A check charged less than its attempts
-- left (an attempt charged after it finished) and an open one are left as they are.
UPDATE checks k SET "retiredAttemptMicros" = k."chargedMicros" - s.kept
FROM (
  SELECT ch.id, coalesce(sum(a."costMicros"), 0) AS kept
  FROM checks ch
    LEFT JOIN captures c ON c."checkId" = ch.id
    LEFT JOIN attempts a ON a."captureId" = c.id
  WHERE ch."finishedAt" IS NOT NULL
  GROUP BY ch.id
) s
WHERE k.id = s.id AND k."finishedAt" IS NOT NULL AND k."chargedMicros" > k."retiredAttemptMicros" + s.kept;
