"use server";
import { createRule, deleteRule, listFirings, listRules, setRuleEnabled, updateRule } from "@/lib/alerts/rules";
import { requestAlertEvaluation } from "@/lib/alerts/schedule";
import { firingsPageSchema, ruleIdSchema, ruleInputSchema, setRuleEnabledSchema, updateRuleSchema } from "@/lib/alerts/schemas";
import { assertCan, canManageAlerts } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";

// Alert rules: everyone in the workspace sees them and what they fired; admins change them
// (a rule sends messages to the channels admins set up).
const onlyAdmins = "Only admins can change alert rules.";

export const listAlertRulesAction = workspaceAction.action(async ({ ctx }) => listRules(ctx.workspace.id));

export const listAlertFiringsAction = workspaceAction.inputSchema(firingsPageSchema, fieldPaths).action(async ({ parsedInput, ctx }) =>
  listFirings(ctx.workspace.id, parsedInput),
);

export const createAlertRuleAction = workspaceAction.inputSchema(ruleInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), onlyAdmins);
  const rule = await createRule(ctx.workspace.id, ctx.userId, parsedInput);
  // A new rule is judged at once, so its page shows where it stands and its sample-size hint.
  await requestAlertEvaluation(ctx.workspace.id);
  return rule;
});

export const updateAlertRuleAction = workspaceAction.inputSchema(updateRuleSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), onlyAdmins);
  await updateRule(ctx.workspace.id, parsedInput.ruleId, parsedInput.rule, parsedInput.version);
  await requestAlertEvaluation(ctx.workspace.id);
  return { id: parsedInput.ruleId };
});

export const setAlertRuleEnabledAction = workspaceAction.inputSchema(setRuleEnabledSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), onlyAdmins);
  await setRuleEnabled(ctx.workspace.id, parsedInput.ruleId, parsedInput.enabled);
});

export const deleteAlertRuleAction = workspaceAction.inputSchema(ruleIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), onlyAdmins);
  await deleteRule(ctx.workspace.id, parsedInput.ruleId);
});

export const evaluateAlertsNowAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageAlerts(ctx), "Only admins can run the alert rules now.");
  await requestAlertEvaluation(ctx.workspace.id);
});
