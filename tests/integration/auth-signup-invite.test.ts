// Sign-up in the default mode (BEACON_SIGNUP unset): the first account of a fresh instance
// creates it and becomes its operator; after that only an invitation link makes an account, on
// the server action and on better-auth's own HTTP endpoint alike. This file's database starts
// empty, a fresh instance.
import { describe, expect, it, vi } from "vitest";
import { newBrowser, PEER_ADDRESS_HEADER } from "../support/request-context";
import { countRows, expectFieldError, invite, ok, PASSWORD, refused, signUp, uniqueEmail, type Person } from "../support/workspace-fixtures";
import { POST } from "@/app/api/auth/[...all]/route";
import { signInAction, signUpAction } from "@/lib/actions/auth";
import { listMembersAction } from "@/lib/actions/members";
import { createWorkspaceAction, switchWorkspaceAction } from "@/lib/actions/workspaces";
import { signUpAvailability } from "@/lib/auth/sign-up";
import { db } from "@/lib/db/prisma";
import { isOperator } from "@/lib/instance/operators";

vi.hoisted(() => {
  delete process.env.BEACON_SIGNUP;
});
vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const INVITE_ONLY = /by invitation only/i;

/** better-auth's own sign-up endpoint, called the way Next.js calls the route handler. */
async function httpSignUp(body: Record<string, unknown>) {
  const response = await POST(
    new Request("http://localhost:3000/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000", [PEER_ADDRESS_HEADER]: "192.0.2.10" },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as { message?: string; code?: string }, cookie: response.headers.get("set-cookie") };
}

let operator: Person;

describe("a fresh instance", () => {
  it("offers sign-up to its first visitor", async () => {
    expect(await signUpAvailability()).toEqual({ kind: "first" });
  });

  it("makes the first account its operator, with its own workspace; of two first sign-ups at once, at most one", async () => {
    const [ada, bob] = [uniqueEmail("ada"), uniqueEmail("bob")];
    const results = await Promise.all(
      [ada, bob].map((email) => newBrowser().run(() => signUpAction({ name: "First Person", email, password: PASSWORD, workspaceName: "Founders" }))),
    );
    const created = await db().user.findMany({ include: { operator: true, memberships: { include: { workspace: true } } } });
    // Either one won (and the other was refused as invite-only), or both found the other's row
    // and neither did; then nothing of either is left, and a later sign-up is the first.
    expect(created.length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r?.data).length).toBe(created.length);
    for (const result of results.filter((r) => !r?.data)) expect(refused(result, "forbidden").message).toMatch(INVITE_ONLY);
    if (!created.length) await signUp({ name: "First Person", email: ada, workspaceName: "Founders" });

    const [first] = await db().user.findMany({ include: { operator: true, memberships: { include: { workspace: true } } } });
    expect(first!.operator).not.toBeNull();
    expect(await isOperator(first!.id)).toBe(true);
    expect(first!.memberships).toEqual([expect.objectContaining({ role: "owner", workspace: expect.objectContaining({ name: "Founders" }) })]);
    expect(await db().account.count({ where: { userId: first!.id } })).toBe(1);

    const browser = newBrowser();
    ok(await browser.run(() => signInAction({ email: first!.email, password: PASSWORD })));
    operator = { browser, userId: first!.id, email: first!.email, name: first!.name, workspaceId: first!.memberships[0]!.workspaceId };
  });
});

describe("after the first account", () => {
  it("tells visitors that sign-up is by invitation", async () => {
    expect(await signUpAvailability()).toEqual({ kind: "invite-only" });
  });

  it("refuses a sign-up without an invitation, with the same answer whether or not the address has an account", async () => {
    const before = await countRows();
    const stranger = newBrowser();
    const fresh = await stranger.run(() => signUpAction({ name: "Stranger", email: uniqueEmail("stranger"), password: PASSWORD }));
    const taken = await newBrowser().run(() => signUpAction({ name: "Stranger", email: operator.email, password: PASSWORD }));
    expect(refused(fresh, "forbidden").message).toMatch(INVITE_ONLY);
    expect(taken).toEqual(fresh);
    expect(stranger.cookies()).toEqual([]);
    expect(await countRows()).toEqual(before);
  });

  it("refuses the same on better-auth's HTTP endpoint", async () => {
    const before = await countRows();
    const fresh = await httpSignUp({ name: "Curl User", email: uniqueEmail("curl"), password: PASSWORD });
    const taken = await httpSignUp({ name: "Curl User", email: operator.email, password: PASSWORD });
    expect(fresh.status).toBe(403);
    expect(fresh.body.message).toMatch(INVITE_ONLY);
    expect(taken).toEqual(fresh);
    expect(fresh.cookie).toBeNull();
    expect(await countRows()).toEqual(before);
  });

  it("lets an invited address sign up into the inviting workspace, as an ordinary member", async () => {
    const email = uniqueEmail("invited");
    const { token } = await invite(operator, email, "member");
    expect(await signUpAvailability(token)).toMatchObject({ kind: "invited", email });
    const before = await countRows();

    const person = await signUp({ name: "Ivy Invited", email, inviteToken: token });

    expect(person.workspaceId).toBe(operator.workspaceId);
    expect((await db().membership.findMany({ where: { userId: person.userId } })).map((m) => [m.workspaceId, m.role])).toEqual([[operator.workspaceId, "member"]]);
    expect(await isOperator(person.userId)).toBe(false);
    expect((await countRows()).workspaces).toBe(before.workspaces);
    expect(ok(await person.browser.run(() => listMembersAction())).me.role).toBe("member");
    // The link is used up.
    expect(await signUpAvailability(token)).toEqual({ kind: "stale-invitation" });
  });

  it("does not let an invitation sign up another address", async () => {
    const { token } = await invite(operator, uniqueEmail("right"), "member");
    const before = await countRows();
    const result = await newBrowser().run(() => signUpAction({ name: "Wrong Person", email: uniqueEmail("wrong"), password: PASSWORD, inviteToken: token }));
    expectFieldError(result, "email", /invitation is for/);
    expect(await countRows()).toEqual(before);
  });

  it("answers an invited address that already has an account like a new one, and joins it when the form signs in", async () => {
    const email = uniqueEmail("tess");
    const tess = await signUp({ name: "Tess Twice", email, inviteToken: (await invite(operator, email, "viewer")).token });
    // The operator's second workspace invites Tess, who already has an account.
    const second = ok(await operator.browser.run(() => createWorkspaceAction({ name: "Second Team" })));
    const { token } = await invite(operator, email, "admin");
    const before = await countRows();

    const browser = newBrowser();
    const answer = await browser.run(() => signUpAction({ name: "Tess Again", email, password: "a different password", inviteToken: token }));
    expect(answer).toEqual({ data: { ok: true } });
    expect(browser.cookies()).toEqual([]);
    expect(await countRows()).toEqual(before);

    // Her own password signs her in and accepts the invitation; the other one does not.
    refused(await browser.run(() => signInAction({ email, password: "a different password", inviteToken: token })), "bad_request");
    ok(await browser.run(() => signInAction({ email, password: PASSWORD, inviteToken: token })));
    expect((await db().membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: second.workspaceId, userId: tess.userId } } })).role).toBe("admin");
    ok(await operator.browser.run(() => switchWorkspaceAction({ workspaceId: operator.workspaceId })));
  });
});
