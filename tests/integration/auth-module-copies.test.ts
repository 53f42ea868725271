// Next bundles a module into several copies in one server process (route handlers in one layer,
// server actions and pages in the react-server layer), while `auth()` is one globalThis
// singleton whose hooks belong to whichever copy created it. Whatever the sign-up action hands
// those hooks must therefore not live in module state of one copy (issue 17, defect 7: after a
// restart whose first request was `GET /api/auth/get-session`, every invitation sign-up was
// refused as "invitation only" until the next restart).
//
// Two copies are made here without a build: the server-action copy is this file's static
// imports; the route handler is imported again after `vi.resetModules()`, so it and everything
// it imports (lib/auth/auth.ts, hooks.ts, sign-up.ts) is a second copy, and it is that copy that
// creates `auth()` (the first request after the start). This file's process starts with no
// `auth()` yet. The production-build order is in tests/e2e/auth.test.ts.
import { describe, expect, it, vi } from "vitest";
import { newBrowser, PEER_ADDRESS_HEADER } from "../support/request-context";
import { countRows, invite, PASSWORD, refused, signUp, uniqueEmail } from "../support/workspace-fixtures";
import { signUpAction } from "@/lib/actions/auth";
import { db } from "@/lib/db/prisma";

vi.hoisted(() => {
  delete process.env.BEACON_SIGNUP;
});
vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

describe("the first request after a start goes to /api/auth/*", () => {
  it("still lets an invitation sign up through the server action (another copy of lib/auth)", async () => {
    expect((globalThis as { beaconAuth?: unknown }).beaconAuth, "auth() not created yet in this process").toBeUndefined();

    vi.resetModules();
    const routeCopy = await import("@/app/api/auth/[...all]/route");
    const session = await routeCopy.GET(new Request("http://localhost:3000/api/auth/get-session", { headers: { [PEER_ADDRESS_HEADER]: "192.0.2.10" } }));
    expect(session.status).toBe(200);
    expect((globalThis as { beaconAuth?: unknown }).beaconAuth, "the route's copy created auth()").toBeDefined();

    // The first account of a fresh instance needs no invitation; the second one does.
    const operator = await signUp({ name: "Olga Operator", workspaceName: "Ops" });
    const email = uniqueEmail("invited");
    const { token } = await invite(operator, email, "member");
    const before = await countRows();

    const person = await signUp({ name: "Ivan Invited", email, inviteToken: token });

    expect(person.workspaceId).toBe(operator.workspaceId);
    expect((await db().membership.findMany({ where: { userId: person.userId } })).map((m) => m.role)).toEqual(["member"]);
    expect((await countRows()).workspaces).toBe(before.workspaces);

    // And a sign-up without an invitation is still refused.
    const stranger = await newBrowser().run(() => signUpAction({ name: "Stranger", email: uniqueEmail("stranger"), password: PASSWORD }));
    expect(refused(stranger, "forbidden").message).toMatch(/by invitation only/i);
    expect(await db().user.count()).toBe(2);
  });
});
