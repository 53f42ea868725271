// Sign-up with BEACON_SIGNUP=closed: the first account of a fresh instance still creates it;
// after that nobody makes an account, not even with an invitation link (invitations are for
// existing accounts, which accept them by signing in). This file's database starts empty.
import { hashPassword } from "better-auth/crypto";
import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { newBrowser, PEER_ADDRESS_HEADER } from "../support/request-context";
import { countRows, invite, ok, PASSWORD, refused, signUp, uniqueEmail, type Person } from "../support/workspace-fixtures";
import { POST } from "@/app/api/auth/[...all]/route";
import { acceptInvitationAction, signInAction, signUpAction } from "@/lib/actions/auth";
import { signUpAvailability } from "@/lib/auth/sign-up";
import { db } from "@/lib/db/prisma";
import { isOperator } from "@/lib/instance/operators";

vi.hoisted(() => {
  process.env.BEACON_SIGNUP = "closed";
});
vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const CLOSED = /does not accept new accounts/i;

let operator: Person;

describe("BEACON_SIGNUP=closed", () => {
  it("still lets the first account create the instance and operate it", async () => {
    expect(await signUpAvailability()).toEqual({ kind: "first" });
    operator = await signUp({ name: "Olga Operator", workspaceName: "Headquarters" });
    expect(await isOperator(operator.userId)).toBe(true);
    expect(await signUpAvailability()).toEqual({ kind: "closed" });
  });

  it("refuses every other sign-up, with the same answer whether or not the address has an account", async () => {
    const before = await countRows();
    const fresh = await newBrowser().run(() => signUpAction({ name: "Late Comer", email: uniqueEmail("late"), password: PASSWORD }));
    const taken = await newBrowser().run(() => signUpAction({ name: "Late Comer", email: operator.email, password: PASSWORD }));
    expect(refused(fresh, "forbidden").message).toMatch(CLOSED);
    expect(taken).toEqual(fresh);

    const response = await POST(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000", [PEER_ADDRESS_HEADER]: "192.0.2.20" },
        body: JSON.stringify({ name: "Curl User", email: uniqueEmail("curl"), password: PASSWORD }),
      }),
    );
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(CLOSED);
    expect(await countRows()).toEqual(before);
  });

  it("does not make an account from an invitation link", async () => {
    const email = uniqueEmail("invited");
    const { token } = await invite(operator, email, "member");
    expect(await signUpAvailability(token)).toEqual({ kind: "closed" });
    const before = await countRows();
    refused(await newBrowser().run(() => signUpAction({ name: "Ivy Invited", email, password: PASSWORD, inviteToken: token })), "forbidden");
    expect(await countRows()).toEqual(before);
  });

  it("lets an existing account accept an invitation by signing in", async () => {
    // An account made before sign-up was closed (no action can make one now).
    const email = uniqueEmail("existing");
    const id = randomUUID();
    await db().user.create({
      data: { id, name: "Eve Existing", email, accounts: { create: { id: randomUUID(), accountId: id, providerId: "credential", password: await hashPassword(PASSWORD) } } },
    });
    const { token } = await invite(operator, email, "viewer");
    const browser = newBrowser();
    ok(await browser.run(() => signInAction({ email, password: PASSWORD })));
    expect(ok(await browser.run(() => acceptInvitationAction({ inviteToken: token }))).workspaceId).toBe(operator.workspaceId);
  });
});
