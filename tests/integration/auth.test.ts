// Accounts: sign up, sign in and sign out through the real server actions, better-auth and
// PostgreSQL, with BEACON_SIGNUP=open (the other modes: auth-signup-*.test.ts; the limiter:
// auth-rate-limit.test.ts; better-auth's HTTP endpoints: auth-http.test.ts; timing: auth-timing.test.ts). Only Next's request
// accessors are simulated (tests/support/request-context.ts).
import { headers } from "next/headers";
import { describe, expect, it, vi } from "vitest";
import { newBrowser } from "../support/request-context";
import {
  PASSWORD,
  SESSION_COOKIE,
  countRows,
  expectFieldError,
  ok,
  refused,
  signUp,
  uniqueEmail,
} from "../support/workspace-fixtures";
import { signInAction, signOutAction, signUpAction } from "@/lib/actions/auth";
import { listBrandsAction } from "@/lib/actions/brands";
import { listMembersAction } from "@/lib/actions/members";
import { auth } from "@/lib/auth/auth";
import { passwordHashing } from "@/lib/auth/password-hash";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

/** The session token the cookie carries (better-auth signs it: `<token>.<signature>`). */
const tokenIn = (cookie: string | undefined) => cookie?.split(".")[0];

describe("sign up", () => {
  it("creates the user, a hashed password and a workspace they own, then the form's sign-in opens a session", async () => {
    const before = await countRows();
    const browser = newBrowser();
    const result = await browser.run(() =>
      signUpAction({ name: "Ada Lovelace", email: "  Ada@Example.com ", password: PASSWORD, workspaceName: "Analytical Engines" }),
    );
    expect(ok(result)).toEqual({ ok: true });
    // Sign-up itself signs nobody in (its answer must not depend on whether the address is new).
    expect(browser.cookies()).toEqual([]);

    const user = await db().user.findUniqueOrThrow({
      where: { email: "ada@example.com" },
      include: { accounts: true, memberships: { include: { workspace: true } } },
    });
    expect(user.name).toBe("Ada Lovelace");
    expect(user.accounts).toHaveLength(1);
    const stored = user.accounts[0]!.password;
    expect(user.accounts[0]!.providerId).toBe("credential");
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(PASSWORD);
    const { verify } = passwordHashing(env().BEACON_TEST_CHEAP_PASSWORD_HASH);
    expect(await verify({ hash: stored!, password: PASSWORD })).toBe(true);
    expect(await verify({ hash: stored!, password: `${PASSWORD}!` })).toBe(false);
    expect(user.memberships).toHaveLength(1);
    expect(user.memberships[0]).toMatchObject({ role: "owner", workspace: { name: "Analytical Engines" } });

    ok(await browser.run(() => signInAction({ email: "ada@example.com", password: PASSWORD })));
    const cookie = browser.cookie(SESSION_COOKIE);
    expect(cookie, "session cookie").toBeDefined();
    const sessions = await db().session.findMany({ where: { userId: user.id } });
    expect(sessions.map((s) => s.token)).toEqual([tokenIn(cookie)]);
    // The session records the browser's address as the server resolved it.
    expect(sessions[0]!.ipAddress).toBe(browser.address);
    expect(ok(await browser.run(() => listMembersAction())).me).toEqual({ userId: user.id, role: "owner" });

    expect(await countRows()).toEqual({
      ...before,
      users: before.users + 1,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
      workspaces: before.workspaces + 1,
      memberships: before.memberships + 1,
    });
  });

  it("names the workspace after the person when no workspace name is given", async () => {
    const person = await signUp({ name: "Grace Hopper" });
    const workspace = await db().workspace.findUniqueOrThrow({ where: { id: person.workspaceId } });
    expect(workspace.name).toBe("Grace's workspace");
  });

  it("leaves a session that getSession and workspace actions recognise", async () => {
    const person = await signUp({ name: "Alan Turing" });

    const session = await person.browser.run(async () => auth().api.getSession({ headers: await headers() }));
    expect(session?.user).toMatchObject({ id: person.userId, email: person.email });

    const me = ok(await person.browser.run(() => listMembersAction()));
    expect(me.me).toEqual({ userId: person.userId, role: "owner" });
    expect(me.members.map((m) => m.user.id)).toEqual([person.userId]);

    // A browser without the cookie is nobody.
    const stranger = newBrowser();
    expect(await stranger.run(async () => auth().api.getSession({ headers: await headers() }))).toBeNull();
    refused(await stranger.run(() => listBrandsAction()), "unauthorized");
  });

  it("answers a sign-up for an address that has an account exactly as one for a new address, and changes nothing", async () => {
    const first = await signUp({ name: "Katherine Johnson" });
    const before = await countRows();

    const taken = newBrowser();
    const takenResult = await taken.run(() =>
      signUpAction({ name: "Someone Else", email: first.email.toUpperCase(), password: "another password", workspaceName: "Copycat" }),
    );
    const fresh = newBrowser();
    const freshResult = await fresh.run(() =>
      signUpAction({ name: "Someone New", email: uniqueEmail("someone.new"), password: "another password", workspaceName: "Newcomer" }),
    );
    // Same answer, no cookie either way.
    expect(takenResult).toEqual(freshResult);
    expect(takenResult).toEqual({ data: { ok: true } });
    expect(taken.cookies()).toEqual([]);
    expect(fresh.cookies()).toEqual([]);

    // Only the new address got an account.
    expect(await countRows()).toEqual({ ...before, users: before.users + 1, accounts: before.accounts + 1, workspaces: before.workspaces + 1, memberships: before.memberships + 1 });
    expect(await db().workspace.count({ where: { name: "Copycat" } })).toBe(0);
    // The first account's password was not overwritten, and the newcomer's works.
    ok(await newBrowser().run(() => signInAction({ email: first.email, password: PASSWORD })));
    refused(await newBrowser().run(() => signInAction({ email: first.email, password: "another password" })), "bad_request");
  });

  it.each<[string, Partial<Parameters<typeof signUpAction>[0]>, string, RegExp]>([
    ["a malformed email", { email: "not-an-email" }, "email", /valid email/i],
    ["an email with a control character", { email: "ada\u0000@example.com" }, "email", /control character/i],
    ["a 255-character email", { email: `${"a".repeat(243)}@example.com` }, "email", /at most 254/i],
    ["a 9-character password", { password: "123456789" }, "password", /at least 10/i],
    ["a 129-character password", { password: "x".repeat(129) }, "password", /at most 128/i],
    ["an empty name", { name: "   " }, "name", /name/i],
    ["a 101-character name", { name: "n".repeat(101) }, "name", /at most 100/i],
    ["a 500,000-character name", { name: "n".repeat(500_000) }, "name", /at most 100/i],
    ["a name with a NUL", { name: "Ada\u0000Lovelace" }, "name", /control character/i],
    ["a 1-character workspace name", { workspaceName: "A" }, "workspaceName", /at least 2/i],
  ])("refuses %s with a message on the field and stores nothing", async (_, change, field, message) => {
    const before = await countRows();
    const browser = newBrowser();
    const result = await browser.run(() =>
      signUpAction({ name: "Valid Name", email: uniqueEmail("invalid"), password: PASSWORD, workspaceName: "Fine Name", ...change }),
    );
    expect(result?.validationErrors).toBeDefined();
    expectFieldError(result, field, message);
    expect(await countRows()).toEqual(before);
    expect(browser.cookies()).toEqual([]);
  });

  it.each([
    ["password123", /commonly used/],
    ["Qwertyuiop", /hundred most used/],
    ["1q2w3e4r5t6y", /commonly used/],
    ["BASKETBALL", /commonly used/],
    ["aaaaaaaaaa", /Repeated characters/],
    ["abcdefghijkl", /character sequences/],
  ])("refuses the easily guessed password %s on the server, with zxcvbn's reason on the field", async (password, why) => {
    const before = await countRows();
    const result = await newBrowser().run(() => signUpAction({ name: "Common Choice", email: uniqueEmail("common"), password }));
    expectFieldError(result, "password", /too easy to guess/);
    expectFieldError(result, "password", why);
    expect(await countRows()).toEqual(before);
  });

  it("refuses the person's own email address as their password", async () => {
    const before = await countRows();
    const email = uniqueEmail("grace.hopper");
    const result = await newBrowser().run(() => signUpAction({ name: "Grace Hopper", email, password: email }));
    expectFieldError(result, "password", /personal data/);
    expect(await countRows()).toEqual(before);
  });
});

describe("sign in", () => {
  it("refuses a wrong password or an unknown email without telling which, and sets no cookie", async () => {
    const person = await signUp({ name: "Hedy Lamarr" });
    const sessions = await db().session.count({ where: { userId: person.userId } });

    for (const credentials of [
      { email: person.email, password: "wrong password" },
      { email: uniqueEmail("nobody"), password: PASSWORD },
    ]) {
      const browser = newBrowser();
      const error = refused(await browser.run(() => signInAction(credentials)), "bad_request");
      expect(error.message).toBe("That email and password do not match an account.");
      expect(browser.cookies()).toEqual([]);
      refused(await browser.run(() => listBrandsAction()), "unauthorized");
    }
    expect(await db().session.count({ where: { userId: person.userId } })).toBe(sessions);
  });

  it("opens a new session for the right password, in the person's workspace", async () => {
    const person = await signUp({ name: "Margaret Hamilton" });
    const laptop = newBrowser();
    ok(await laptop.run(() => signInAction({ email: person.email.toUpperCase(), password: PASSWORD })));

    const cookie = laptop.cookie(SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(tokenIn(cookie)).not.toBe(tokenIn(person.browser.cookie(SESSION_COOKIE)));
    const session = await db().session.findUniqueOrThrow({ where: { token: tokenIn(cookie)! } });
    expect(session.userId).toBe(person.userId);

    const members = ok(await laptop.run(() => listMembersAction()));
    expect(members.me).toEqual({ userId: person.userId, role: "owner" });
    expect(members.members.map((m) => m.user.id)).toEqual([person.userId]);
  });
});

describe("sign out", () => {
  it("ends the session: the cookie is cleared and the old token no longer works anywhere", async () => {
    const person = await signUp({ name: "Barbara Liskov" });
    const phone = newBrowser();
    ok(await phone.run(() => signInAction({ email: person.email, password: PASSWORD })));
    const oldCookie = person.browser.cookie(SESSION_COOKIE)!;
    ok(await person.browser.run(() => listBrandsAction()));

    ok(await person.browser.run(() => signOutAction()));

    expect(person.browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(await db().session.findUnique({ where: { token: tokenIn(oldCookie)! } })).toBeNull();
    const error = refused(await person.browser.run(() => listBrandsAction()), "unauthorized");
    expect(error.message).toMatch(/sign in/i);

    // Replaying the old cookie (e.g. copied before sign-out) does not bring the session back.
    const replay = newBrowser();
    replay.setCookie(SESSION_COOKIE, oldCookie);
    refused(await replay.run(() => listBrandsAction()), "unauthorized");
    expect(await replay.run(async () => auth().api.getSession({ headers: await headers() }))).toBeNull();

    // Only that session ended: the phone stays signed in.
    expect(ok(await phone.run(() => listMembersAction())).me.userId).toBe(person.userId);
  });
});
