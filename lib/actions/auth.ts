"use server";
import { headers } from "next/headers";
import { APIError } from "better-auth/api";
import { auth } from "@/lib/auth/auth";
import { getSessionUser, rememberWorkspace } from "@/lib/auth/session";
import { fieldPaths, publicAction } from "@/lib/actions/safe-action";
import { UnauthorizedError, UserError } from "@/lib/errors";
import { acceptInvitation, findInvitation } from "@/lib/workspaces/members";
import { signInSchema, signUpSchema } from "@/lib/workspaces/schemas";
import { createWorkspace } from "@/lib/workspaces/workspaces";


export const signUpAction = publicAction.inputSchema(signUpSchema, fieldPaths).action(async ({ parsedInput: input }) => {
  if (input.inviteToken) {
    // Check the invitation before creating the account, so a bad link creates nothing.
    const invitation = await findInvitation(input.inviteToken);
    if (!invitation || invitation.state !== "pending") throw new UserError("This invitation link is no longer valid.");
    if (invitation.email !== input.email) {
      throw new UserError(`This invitation is for ${invitation.email}. Sign up with that address.`, { field: "email" });
    }
  }
  let user: { id: string; email: string };
  try {
    ({ user } = await auth().api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password },
      headers: await headers(),
    }));
  } catch (error) {
    if (error instanceof APIError) {
      const exists = /exist/i.test(error.message);
      throw new UserError(exists ? "An account with this email already exists. Sign in instead." : error.message, { field: exists ? "email" : undefined });
    }
    throw error;
  }
  const workspaceId = input.inviteToken
    ? await acceptInvitation(user, input.inviteToken)
    : (await createWorkspace(user.id, input.workspaceName ?? `${input.name.split(" ")[0]}'s workspace`)).id;
  await rememberWorkspace(workspaceId);
  return { workspaceId };
});

export const signInAction = publicAction.inputSchema(signInSchema, fieldPaths).action(async ({ parsedInput: input }) => {
  try {
    await auth().api.signInEmail({ body: input, headers: await headers() });
  } catch (error) {
    if (error instanceof APIError) throw new UserError("That email and password do not match an account.");
    throw error;
  }
  return { ok: true };
});

export const signOutAction = publicAction.action(async () => {
  await auth().api.signOut({ headers: await headers() });
  return { ok: true };
});

export const acceptInvitationAction = publicAction
  .inputSchema(signUpSchema.pick({ inviteToken: true }).required(), fieldPaths)
  .action(async ({ parsedInput: { inviteToken } }) => {
    const user = await getSessionUser();
    if (!user) throw new UnauthorizedError("Sign in to accept this invitation.");
    const workspaceId = await acceptInvitation(user, inviteToken);
    await rememberWorkspace(workspaceId);
    return { workspaceId };
  });
