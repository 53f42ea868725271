-- An alert rule's kind is text, validated by its kind's module (lib/alerts/kinds.ts) through zod
-- like every other input, so adding a kind needs no migration (as provider_connections.adapter,
-- 20261206100000_adapter_as_text). No CHECK constraint: the list of kinds lives in one place, the
-- code that knows how to judge them.
ALTER TABLE "alert_rules" ALTER COLUMN "kind" TYPE TEXT USING "kind"::text;
DROP TYPE "AlertRuleKind";
