"use server";
import { z } from "zod";
import { assertCan, canManageAlerts } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { editedAt } from "@/lib/validation/edit-version";
import { createChannel, deleteChannel, listChannels, rotateWebhookSecret, updateChannel } from "@/lib/alerts/channels";
import { listDeliveries, sendDeliveryAgain, sendTestDelivery } from "@/lib/alerts/deliveries";
import { channelIdSchema, channelInputSchema, deliveryIdSchema, deliveryListSchema, updateChannelSchema } from "@/lib/alerts/channel-schemas";

// Alert channels and the delivery log: admins and owners only, since they hold webhook URLs,
// signing secrets, email addresses and receivers' errors.
const refusal = "Only admins can manage alert channels and see the delivery log.";

export const listAlertChannelsAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  return listChannels(ctx.workspace.id);
});

/** Creates a channel; a webhook channel's signing secret comes back this once. */
export const createAlertChannelAction = workspaceAction.inputSchema(channelInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  return createChannel(ctx.workspace.id, parsedInput);
});

export const updateAlertChannelAction = workspaceAction.inputSchema(z.intersection(updateChannelSchema, z.object({ version: editedAt })), fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  // The create action's shape, so one form handles both; only creation and rotation reveal a secret.
  return { channel: await updateChannel(ctx.workspace.id, parsedInput), secret: null };
});

export const deleteAlertChannelAction = workspaceAction.inputSchema(channelIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  await deleteChannel(ctx.workspace.id, parsedInput.channelId);
  return { deleted: true };
});

export const rotateWebhookSecretAction = workspaceAction.inputSchema(channelIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  return rotateWebhookSecret(ctx.workspace.id, parsedInput.channelId);
});

/** "Send test": a test delivery to the channel, sent by the worker; the log shows its result. */
export const sendTestAlertAction = workspaceAction.inputSchema(channelIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  return sendTestDelivery(ctx.workspace.id, parsedInput.channelId);
});

export const listAlertDeliveriesAction = workspaceAction.inputSchema(deliveryListSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  return listDeliveries(ctx.workspace.id, parsedInput);
});

/** "Send again" for a delivery whose outcome is unknown (it may have arrived): the user's choice. */
export const sendAlertDeliveryAgainAction = workspaceAction.inputSchema(deliveryIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageAlerts(ctx), refusal);
  await sendDeliveryAgain(ctx.workspace.id, parsedInput.deliveryId);
  return { queued: true };
});
