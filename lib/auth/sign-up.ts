import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { ForbiddenError, UserError } from "@/lib/errors";
import { claimFirstOperator } from "@/lib/instance/operators";
import { acceptInvitationIn, findInvitation } from "@/lib/workspaces/members";
import { createWorkspaceIn } from "@/lib/workspaces/workspaces";

// Who may create an account (BEACON_SIGNUP), and what a new account gets. Enforced inside
// better-auth (lib/auth/hooks.ts), so the sign-up server action and better-auth's own HTTP
// endpoint follow the same rules:
//   invite (default)  the first account of a fresh instance (no accounts yet) creates it and
//                     becomes its operator; after that only an invitation link makes an account.
//   open              anyone; each new account gets its own workspace (or joins the invitation's).
//   closed            the first account only; invitations are accepted by existing accounts.
// A new account's workspace (or invitation membership) and the first-operator claim are written
// in one transaction as soon as better-auth has stored the user and its password; if they cannot
// be, the user is removed again and the sign-up fails.

export type SignUpMode = "open" | "invite" | "closed";

export const signUpMode = (): SignUpMode => env().BEACON_SIGNUP;

/** What the sign-up form asked for besides the account; better-auth's HTTP endpoint has none. */
export type SignUpIntent = { inviteToken?: string; workspaceName?: string };

// One storage per process, not per module copy: Next bundles this module into several copies
// (route handlers, server actions), while auth() is one globalThis singleton whose hooks read
// through the copy that created it. A module-level storage made every invitation sign-up fail
// whenever /api/auth/* created auth() first (issue 17, tests/integration/auth-module-copies.test.ts).
const INTENTS = Symbol.for("beacon.auth.sign-up-intents");
const intents = ((globalThis as Record<symbol, unknown>)[INTENTS] ??= new AsyncLocalStorage<SignUpIntent>()) as AsyncLocalStorage<SignUpIntent>;

/** Runs `fn` (a better-auth sign-up call) with the form's invitation and workspace name. */
export const withSignUpIntent = <T>(intent: SignUpIntent, fn: () => Promise<T>): Promise<T> => intents.run(intent, fn);

export const currentSignUpIntent = (): SignUpIntent => intents.getStore() ?? {};

export const INVITE_ONLY_MESSAGE = "Sign-up on this Beacon is by invitation only. Ask a workspace admin for an invitation link.";
export const CLOSED_MESSAGE = "This Beacon does not accept new accounts. If you already have one, sign in.";
const STALE_INVITATION_MESSAGE = "This invitation link is no longer valid. Ask for a new one.";

/** No account exists yet: whoever signs up first creates the instance. */
export async function isFreshInstance(): Promise<boolean> {
  return (await db().user.findFirst({ select: { id: true } })) === null;
}

/** What the sign-up page offers. */
export type SignUpAvailability =
  | { kind: "open" | "first" }
  | { kind: "invited"; email: string; workspaceName: string }
  | { kind: "invite-only" | "closed" | "stale-invitation" };

export async function signUpAvailability(inviteToken?: string): Promise<SignUpAvailability> {
  const mode = signUpMode();
  if (await isFreshInstance()) return { kind: "first" };
  if (mode === "closed") return { kind: "closed" };
  if (inviteToken) {
    const invitation = await findInvitation(inviteToken);
    if (invitation?.state !== "pending") return { kind: "stale-invitation" };
    return { kind: "invited", email: invitation.email, workspaceName: invitation.workspaceName };
  }
  return { kind: mode === "open" ? "open" : "invite-only" };
}

/**
 * Refuses a sign-up the mode does not allow, before anything is looked up or stored: the answer
 * is the same whether or not `email` already has an account (checked again, under locks, by
 * provisionAccount).
 */
export async function admitSignUp(email: string, intent: SignUpIntent): Promise<void> {
  const mode = signUpMode();
  if (await isFreshInstance()) return;
  if (mode === "closed") throw new ForbiddenError(CLOSED_MESSAGE);
  if (intent.inviteToken) {
    const invitation = await findInvitation(intent.inviteToken);
    if (invitation?.state !== "pending") throw new UserError(STALE_INVITATION_MESSAGE);
    if (invitation.email.toLowerCase() !== email.toLowerCase()) {
      throw new UserError(`This invitation is for ${invitation.email}. Sign up with that address.`, { field: "email" });
    }
    return;
  }
  if (mode !== "open") throw new ForbiddenError(INVITE_ONLY_MESSAGE);
}

const defaultWorkspaceName = (name: string) => `${name.trim().split(/\s+/)[0] || "My"}'s workspace`;

/**
 * Gives the user better-auth just inserted what their sign-up promised, in one transaction: the
 * invitation's membership or their own workspace, and the operator role when this is the
 * instance's first account. Removes the user again and throws when the sign-up is not allowed
 * after all (two first sign-ups at once, one invitation used twice at once).
 */
export async function provisionAccount(user: { id: string; email: string; name: string }, intent: SignUpIntent): Promise<void> {
  try {
    await transaction(async (tx) => {
      // Every sign-up's user row is committed before it gets here, so of two first sign-ups at
      // once at most one finds itself alone (maybe neither: both are refused, and a retry works).
      const alone = (await tx.user.findFirst({ where: { id: { not: user.id } }, select: { id: true } })) === null;
      const first = alone && (await claimFirstOperator(tx, user.id));
      const mode = signUpMode();
      if (intent.inviteToken && !first) {
        if (mode === "closed") throw new ForbiddenError(CLOSED_MESSAGE);
        await acceptInvitationIn(tx, user, intent.inviteToken);
        return;
      }
      if (!first && mode !== "open") throw new ForbiddenError(mode === "closed" ? CLOSED_MESSAGE : INVITE_ONLY_MESSAGE);
      await createWorkspaceIn(tx, user.id, intent.workspaceName ?? defaultWorkspaceName(user.name));
    });
  } catch (error) {
    await db().user.deleteMany({ where: { id: user.id } });
    throw error;
  }
}
