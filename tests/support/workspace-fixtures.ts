// People, workspaces and assertions shared by the integration tests of accounts and tenancy.
// Everything goes through the real server actions (tests/support/request-context.ts supplies
// the request); Prisma is used only to look at what was stored, and to arrange what no action
// can (an invitation that has expired).
//
// Test files that import this module must also mock next/headers, see request-context.ts.
import { expect } from "vitest";
import { signInAction, signUpAction } from "@/lib/actions/auth";
import { inviteMemberAction } from "@/lib/actions/members";
import type { ActionError } from "@/lib/actions/safe-action";
import type { Role } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { newBrowser, type Browser } from "./request-context";

export const SESSION_COOKIE = "better-auth.session_token";
export const WORKSPACE_COOKIE = "beacon_workspace";
export const PASSWORD = "correct horse battery";

/** What a next-safe-action action resolves to. */
export type ActionResult<T = unknown> = {
  data?: T;
  serverError?: ActionError;
  validationErrors?: unknown;
};

/** A call of some action, for tables of actions. */
export type AnyAction = () => Promise<ActionResult>;

/** The data of a successful result; fails the test with the error otherwise. */
export function ok<T>(result: ActionResult<T> | undefined): T {
  expect(result, "action result").toBeDefined();
  expect(result?.serverError, "serverError").toBeUndefined();
  expect(result?.validationErrors, "validationErrors").toBeUndefined();
  return result!.data as T;
}

/** Asserts the action was refused by the server (not by validation) with one of `codes`. */
export function refused(result: ActionResult | undefined, ...codes: string[]): ActionError {
  expect(result?.validationErrors, "validationErrors").toBeUndefined();
  expect(result?.data, "data").toBeUndefined();
  expect(result?.serverError, "serverError").toBeDefined();
  expect(codes, `serverError ${JSON.stringify(result?.serverError)}`).toContain(result!.serverError!.code);
  expect(result!.serverError!.message.length).toBeGreaterThan(0);
  return result!.serverError!;
}

type FieldErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> };

/**
 * The messages a result carries for `field` or any part of it (`competitors` also collects
 * `competitors.1.name`). The browser (lib/browser/action-result.ts and the form dialogs) shows
 * `validationErrors.fieldErrors[<dotted path>]` and `serverError.field`, so that is what is read.
 */
export function fieldMessages(result: ActionResult | undefined, field: string): string[] {
  const messages: string[] = [];
  const matches = (key: string) => key === field || key.startsWith(`${field}.`);
  const validation = result?.validationErrors as FieldErrors | undefined;
  for (const [key, list] of Object.entries(validation?.fieldErrors ?? {})) if (matches(key)) messages.push(...(list ?? []));
  const error = result?.serverError;
  if (error?.field && matches(error.field)) messages.push(error.message);
  return messages;
}

/** Asserts the result is a refusal that tells the user, on `field`, a message matching `message`. */
export function expectFieldError(result: ActionResult | undefined, field: string, message: RegExp): void {
  expect(result?.data, "data").toBeUndefined();
  expect(result?.validationErrors ?? result?.serverError, "a refusal").toBeDefined();
  const messages = fieldMessages(result, field);
  expect(messages, `messages for "${field}" in ${JSON.stringify(result)}`).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
}

let people = 0;
/** A fresh address per call; the database lives for one test file. */
export function uniqueEmail(name = "person"): string {
  people += 1;
  return `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${people}@example.com`;
}

export type Person = {
  browser: Browser;
  userId: string;
  email: string;
  name: string;
  /** The workspace sign-up created or joined; the browser's active one at that moment. */
  workspaceId: string;
};

/**
 * Signs a new person up in a new browser, then signs them in, as the sign-up form does (with an
 * invitation token: joins that workspace). Tests run with BEACON_SIGNUP=open
 * (tests/support/setup-database.ts) unless a file sets another mode.
 */
export async function signUp(
  options: { name?: string; email?: string; password?: string; workspaceName?: string; inviteToken?: string } = {},
): Promise<Person> {
  const name = options.name ?? "Pat Person";
  const email = options.email ?? uniqueEmail(name);
  const password = options.password ?? PASSWORD;
  const browser = newBrowser();
  ok(await browser.run(() => signUpAction({ name, email, password, workspaceName: options.workspaceName, inviteToken: options.inviteToken })));
  ok(await browser.run(() => signInAction({ email, password, inviteToken: options.inviteToken })));
  const user = await db().user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
  const { workspaceId } = await db().membership.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
  return { browser, userId: user.id, email: user.email, name, workspaceId };
}

/** The token at the end of an invitation link. */
export function tokenOf(link: string): string {
  const token = new URL(link).pathname.split("/invite/")[1];
  expect(token, `token in ${link}`).toBeTruthy();
  return token!;
}

/** `by` invites `email` with `role`; returns the invitation id and link token. */
export async function invite(by: Person, email: string, role: Role): Promise<{ id: string; token: string }> {
  const invitation = ok(await by.browser.run(() => inviteMemberAction({ email, role })));
  return { id: invitation.id, token: tokenOf(invitation.link) };
}

/** A new person who joins `owner`'s workspace with `role` through an invitation link. */
export async function join(owner: Person, role: Role, name = `Rita ${role}`): Promise<Person> {
  const email = uniqueEmail(name);
  const { token } = await invite(owner, email, role);
  const person = await signUp({ name, email, inviteToken: token });
  expect(person.workspaceId).toBe(owner.workspaceId);
  return person;
}

export async function membershipOf(userId: string, workspaceId: string) {
  return db().membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId, userId } } });
}

/** Every row of the workspace that an action could touch, in a stable order. */
export async function snapshotWorkspace(workspaceId: string) {
  const byId = { orderBy: { id: "asc" as const } };
  const [workspace, memberships, invitations, brands, competitors, prompts] = await Promise.all([
    db().workspace.findUniqueOrThrow({ where: { id: workspaceId } }),
    db().membership.findMany({ where: { workspaceId }, ...byId }),
    db().invitation.findMany({ where: { workspaceId }, ...byId }),
    db().brand.findMany({ where: { workspaceId }, ...byId }),
    db().competitor.findMany({ where: { workspaceId }, ...byId }),
    db().prompt.findMany({ where: { workspaceId }, ...byId }),
  ]);
  return { workspace, memberships, invitations, brands, competitors, prompts };
}

/** Row counts of every table the account and tracking-setup actions write. */
export async function countRows() {
  const [users, accounts, sessions, workspaces, memberships, invitations, brands, competitors, prompts] = await Promise.all([
    db().user.count(),
    db().account.count(),
    db().session.count(),
    db().workspace.count(),
    db().membership.count(),
    db().invitation.count(),
    db().brand.count(),
    db().competitor.count(),
    db().prompt.count(),
  ]);
  return { users, accounts, sessions, workspaces, memberships, invitations, brands, competitors, prompts };
}

/** A member losing the right to act after an action checked it (rows for `it.each`): made a viewer, or removed. */
export const ROLE_LOSSES: [string, (workspaceId: string, userId: string) => Promise<unknown>][] = [
  ["made a viewer", (workspaceId, userId) => db().membership.updateMany({ where: { workspaceId, userId }, data: { role: "viewer" } })],
  ["removed", (workspaceId, userId) => db().membership.deleteMany({ where: { workspaceId, userId } })],
];
