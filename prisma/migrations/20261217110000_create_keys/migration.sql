-- A schedule or an alert rule is created once per form: its dialog sends one key, and a resubmit
-- after a lost response (a proxy's 502, a dropped connection) finds the first instead of making a
-- second (two identical schedules each made and paid a check at every slot; two identical rules
-- delivered every alert twice). NULL (API callers that send none) is not constrained.
ALTER TABLE "schedules" ADD COLUMN "createKey" UUID;
CREATE UNIQUE INDEX "schedules_workspaceId_createKey_key" ON "schedules"("workspaceId", "createKey");
ALTER TABLE "alert_rules" ADD COLUMN "createKey" UUID;
CREATE UNIQUE INDEX "alert_rules_workspaceId_createKey_key" ON "alert_rules"("workspaceId", "createKey");
