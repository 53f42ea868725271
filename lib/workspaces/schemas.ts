import { z } from "zod";

export const roleSchema = z.enum(["owner", "admin", "member", "viewer"]);

export const workspaceNameSchema = z.string().trim().min(2, "Use at least 2 characters").max(60, "Use at most 60 characters");

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100),
  email: z.string().trim().toLowerCase().email("Enter a valid email address"),
  password: z.string().min(8, "Use at least 8 characters").max(128, "Use at most 128 characters"),
  workspaceName: workspaceNameSchema.optional().or(z.literal("").transform(() => undefined)),
  inviteToken: z.string().optional(),
});

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid email address"),
  password: z.string().min(1, "Enter your password"),
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
