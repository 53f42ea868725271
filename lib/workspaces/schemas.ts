import { z } from "zod";
import { currentPasswordSchema, emailSchema, newPasswordSchema, personNameSchema } from "@/lib/validation/account-fields";
import { ROLES } from "@/lib/permissions/roles";
import { text } from "@/lib/validation/text";

export const roleSchema = z.enum(ROLES);

export const workspaceNameSchema = text({ min: 2, max: 60, label: "The workspace name" });

// Account fields (lib/validation/account-fields.ts) are the same on every path into better-auth.
const inviteTokenSchema = text({ max: 200, label: "The invitation token" }).optional();

export const signUpSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  // An empty field is no name (not a union with "": its refusal would hide the name's own message).
  workspaceName: z.preprocess((value) => (value === "" ? undefined : value), workspaceNameSchema.optional()),
  inviteToken: inviteTokenSchema,
});

export const signInSchema = z.object({
  email: emailSchema,
  password: currentPasswordSchema,
  // Signing in from an invitation's sign-up form accepts it.
  inviteToken: inviteTokenSchema,
});

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid email address"),
  role: roleSchema,
});

/** Settings → Workspace: the budget is entered in dollars; null means no limit. */
export const workspaceSettingsSchema = z.object({
  name: workspaceNameSchema,
  monthlyBudgetUsd: z.number().min(0, "The budget cannot be negative").max(10_000_000, "That budget is too large").nullable(),
});
