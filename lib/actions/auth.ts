"use server";
import { headers } from "next/headers";
import { isAPIError } from "better-auth/api";
import { auth } from "@/lib/auth/auth";
import { getSessionUser, rememberWorkspace } from "@/lib/auth/session";
import { withSignUpIntent } from "@/lib/auth/sign-up";
import { fieldPaths, publicAction } from "@/lib/actions/safe-action";
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, UserError } from "@/lib/errors";
import { acceptInvitation, findInvitation } from "@/lib/workspaces/members";
import { signInSchema, signUpSchema } from "@/lib/workspaces/schemas";

const NO_MATCH = "That email and password do not match an account.";

type ErrorBody = { message?: string; field?: string };

/**
 * Runs a better-auth call and turns its refusals into UserErrors the form shows. Its hooks
 * (lib/auth/hooks.ts) already said what is wrong; better-auth's own wrong-password answer says
 * nothing about whether the account exists, and neither does this.
 */
async function callAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isAPIError(error)) throw error;
    const body = (error.body ?? {}) as ErrorBody;
    const message = body.message || "Please check what you entered.";
    const options = { field: body.field };
    switch (error.statusCode) {
      case 401:
        throw new UserError(NO_MATCH);
      case 403:
        throw new ForbiddenError(message, options);
      case 404:
        throw new NotFoundError(message, options);
      case 429:
        throw new TooManyRequestsError(message, Number(new Headers(error.headers as HeadersInit).get("Retry-After")) || 60);
      default:
        throw new UserError(message, options);
    }
  }
}

/**
 * Creates the account when the address is new (with its workspace, or the invitation's
 * membership) and answers the same, `{ ok: true }` without a cookie, when the address already
 * has one: sign-up does not tell which addresses have accounts. The form then signs in.
 */
export const signUpAction = publicAction.inputSchema(signUpSchema, fieldPaths).action(async ({ parsedInput: input }) => {
  const requestHeaders = await headers();
  await callAuth(() =>
    withSignUpIntent({ inviteToken: input.inviteToken, workspaceName: input.workspaceName }, () =>
      auth().api.signUpEmail({ body: { name: input.name, email: input.email, password: input.password }, headers: requestHeaders }),
    ),
  );
  return { ok: true as const };
});

export const signInAction = publicAction.inputSchema(signInSchema, fieldPaths).action(async ({ parsedInput: input }) => {
  const { user } = await callAuth(async () => auth().api.signInEmail({ body: { email: input.email, password: input.password }, headers: await headers() }));
  // From an invitation's sign-up form: an account that already existed joins now (a new one
  // joined when it was created).
  if (input.inviteToken && (await findInvitation(input.inviteToken))?.state === "pending") {
    await rememberWorkspace(await acceptInvitation(user, input.inviteToken));
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
    if (!user) throw new UnauthorizedError("Please sign in again.");
    const workspaceId = await acceptInvitation(user, inviteToken);
    await rememberWorkspace(workspaceId);
    return { workspaceId };
  });
