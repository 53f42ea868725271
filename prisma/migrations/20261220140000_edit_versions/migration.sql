-- What an edit form of a schedule or an alert rule saves against (lib/validation/edit-version.ts):
-- raised by every change of what their forms show (an edit, a rule switched on or off, prompts
-- or competitors taken out), not by their own runs and evaluations, which rewrite their
-- updatedAt every slot and every evaluation.
ALTER TABLE "schedules" ADD COLUMN "editVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "alert_rules" ADD COLUMN "editVersion" INTEGER NOT NULL DEFAULT 0;
