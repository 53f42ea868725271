// Tenancy: a member of workspace A can neither read nor change anything of workspace B, through
// any workspace action, whatever ids they pass and whatever `beacon_workspace` cookie their
// browser sends. Plus invitation links: who may use them, and when they stop working.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { newBrowser, type Browser } from "../support/request-context";
import {
  PASSWORD,
  WORKSPACE_COOKIE,
  countRows,
  expectFieldError,
  invite,
  join,
  ok,
  refused,
  signUp,
  snapshotWorkspace,
  uniqueEmail,
  type Person,
} from "../support/workspace-fixtures";
import { acceptInvitationAction, signInAction, signUpAction } from "@/lib/actions/auth";
import { createBrandAction, deleteBrandAction, listBrandsAction, updateBrandAction } from "@/lib/actions/brands";
import {
  changeMemberRoleAction,
  inviteMemberAction,
  listMembersAction,
  removeMemberAction,
  revokeInvitationAction,
} from "@/lib/actions/members";
import {
  bulkCreatePromptsAction,
  createPromptAction,
  deletePromptsAction,
  listPromptsAction,
  updatePromptAction,
} from "@/lib/actions/prompts";
import { switchWorkspaceAction } from "@/lib/actions/workspaces";
import { GET as leftWorkspace } from "@/app/workspace/left/route";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

const NOT_YOURS = ["not_found", "forbidden"];

let alice: Person; // owner of workspace A: every permission there, none in B
let bob: Person; // owner of workspace B
let bea: Person; // member of B
const A = { id: "", brandId: "", competitorId: "", promptId: "" };
const B = {
  id: "",
  brandId: "",
  competitorId: "",
  promptIds: [] as string[],
  // "Zanzibar" appears in no prompt of A, so searching for it in A must find nothing.
  promptTexts: ["Which cola tastes best in Zanzibar?", "Is Bravo Cola good for a party in Zanzibar?"],
  invitationId: "",
  ownerMembershipId: "",
  memberMembershipId: "",
};

beforeAll(async () => {
  alice = await signUp({ name: "Alice Anders", workspaceName: "Acme" });
  bob = await signUp({ name: "Bob Berg", workspaceName: "Bravo" });
  bea = await join(bob, "member", "Bea Member");
  A.id = alice.workspaceId;
  B.id = bob.workspaceId;

  const acme = ok(await alice.browser.run(() => createBrandAction({ name: "Acme Anvils", domains: ["acme.example"], competitors: [{ name: "Roadrunner Inc" }] })));
  A.brandId = acme.id;
  A.competitorId = acme.competitors[0]!.id;
  A.promptId = ok(await alice.browser.run(() => createPromptAction({ text: "Where can I buy a reliable anvil?", tags: ["anvils"] }))).id;

  const bravo = ok(
    await bob.browser.run(() =>
      createBrandAction({ name: "Bravo Cola", aliases: ["Bravo"], domains: ["bravo.example"], competitors: [{ name: "Fizz Co", domains: ["fizz.example"] }] }),
    ),
  );
  B.brandId = bravo.id;
  B.competitorId = bravo.competitors[0]!.id;
  ok(await bob.browser.run(() => bulkCreatePromptsAction({ lines: B.promptTexts.join("\n"), tags: ["secret-b"] })));
  B.promptIds = (await db().prompt.findMany({ where: { workspaceId: B.id }, orderBy: { text: "asc" } })).map((p) => p.id);
  B.invitationId = (await invite(bob, "pending.b@example.com", "admin")).id;
  B.ownerMembershipId = (await db().membership.findFirstOrThrow({ where: { workspaceId: B.id, userId: bob.userId } })).id;
  B.memberMembershipId = (await db().membership.findFirstOrThrow({ where: { workspaceId: B.id, userId: bea.userId } })).id;

  expect(B.promptIds).toHaveLength(2);
  expect(A.id).not.toBe(B.id);
});

/** Alice's own browser (a forged cookie naming B is refused outright: "a cookie naming a workspace one is not a member of" below). */
const browsers: [string, () => Promise<Browser>][] = [["Alice's browser", async () => alice.browser]];

describe.each(browsers)("from %s", (label, open) => {
  let browser: Browser;
  const tag = "own";
  beforeAll(async () => {
    browser = await open();
  });

  /** Runs `act` and proves B's rows are exactly as they were. */
  async function leavesBUnchanged<T>(act: () => Promise<T>): Promise<T> {
    const before = await snapshotWorkspace(B.id);
    const result = await act();
    expect(await snapshotWorkspace(B.id)).toEqual(before);
    return result;
  }

  it("works in A: the context is Alice's own workspace", async () => {
    const { me, members } = ok(await browser.run(() => listMembersAction()));
    expect(me).toEqual({ userId: alice.userId, role: "owner" });
    expect(members.map((m) => m.user.id)).toEqual([alice.userId]);
  });

  describe("brands", () => {
    it("lists only A's brands", async () => {
      const brands = ok(await browser.run(() => listBrandsAction()));
      expect(brands.length).toBeGreaterThan(0);
      expect(new Set(brands.map((b) => b.workspaceId))).toEqual(new Set([A.id]));
      expect(brands.flatMap((b) => b.competitors).every((c) => c.workspaceId === A.id)).toBe(true);
      expect(brands.map((b) => b.id)).not.toContain(B.brandId);
    });

    it("creates brands in A, even when naming B's competitor ids", async () => {
      const created = await leavesBUnchanged(async () =>
        ok(await browser.run(() => createBrandAction({ name: `New brand ${tag}`, competitors: [{ id: B.competitorId, name: "Hijacked Fizz" }] }))),
      );
      const stored = await db().brand.findUniqueOrThrow({ where: { id: created.id }, include: { competitors: true } });
      expect(stored.workspaceId).toBe(A.id);
      expect(stored.competitors.map((c) => [c.workspaceId, c.name])).toEqual([[A.id, "Hijacked Fizz"]]);
      expect(stored.competitors[0]!.id).not.toBe(B.competitorId);
    });

    it("cannot update B's brand (but can update A's)", async () => {
      await leavesBUnchanged(async () =>
        refused(await browser.run(() => updateBrandAction({ brandId: B.brandId, brand: { name: "Pwned Cola", competitors: [] } })), ...NOT_YOURS),
      );
      ok(await browser.run(() => updateBrandAction({ brandId: A.brandId, brand: { name: "Acme Anvils", aliases: [tag], competitors: [{ id: A.competitorId, name: "Roadrunner Inc" }] } })));
      expect((await db().brand.findUniqueOrThrow({ where: { id: A.brandId } })).aliases).toEqual([tag]);
    });

    it("cannot move or rename B's competitor through A's brand", async () => {
      const a = await snapshotWorkspace(A.id);
      await leavesBUnchanged(async () =>
        refused(
          await browser.run(() =>
            updateBrandAction({ brandId: A.brandId, brand: { name: "Acme Anvils", competitors: [{ id: B.competitorId, name: "Stolen Fizz" }] } }),
          ),
          ...NOT_YOURS,
        ),
      );
      expect(await snapshotWorkspace(A.id)).toEqual(a);
    });

    it("cannot delete B's brand", async () => {
      await leavesBUnchanged(async () => refused(await browser.run(() => deleteBrandAction({ brandId: B.brandId })), ...NOT_YOURS));
    });
  });

  describe("prompts", () => {
    it("lists only A's prompts and tags, also when searching for B's words", async () => {
      const all = ok(await browser.run(() => listPromptsAction({ pageSize: 100 })));
      expect(all.total).toBe(await db().prompt.count({ where: { workspaceId: A.id, deletedAt: null } }));
      expect(all.items.some((p) => B.promptIds.includes(p.id))).toBe(false);
      expect(all.tags.map((t) => t.tag)).not.toContain("secret-b");

      const searched = ok(await browser.run(() => listPromptsAction({ q: "zanzibar" })));
      expect(searched.total).toBe(0);
      const tagged = ok(await browser.run(() => listPromptsAction({ tag: "secret-b" })));
      expect(tagged.total).toBe(0);
    });

    it("creates a prompt in A even when B already has the same text", async () => {
      const text = `Which soda goes with pizza? (${tag})`;
      // B gets that exact text first, so a duplicate check that ignored workspaces would refuse it.
      ok(await bob.browser.run(() => createPromptAction({ text })));
      const { id } = await leavesBUnchanged(async () => ok(await browser.run(() => createPromptAction({ text }))));
      expect((await db().prompt.findUniqueOrThrow({ where: { id } })).workspaceId).toBe(A.id);
    });

    it("cannot update B's prompt", async () => {
      await leavesBUnchanged(async () =>
        refused(await browser.run(() => updatePromptAction({ promptId: B.promptIds[0]!, prompt: { text: `Rewritten by Alice ${tag}` } })), ...NOT_YOURS),
      );
    });

    it("bulk paste adds to A only and is not affected by B's prompts", async () => {
      const lines = [`Which lemonade is the least sweet? [${tag}]`, `Is sparkling water healthy? [${tag}]`];
      for (const text of lines) ok(await bob.browser.run(() => createPromptAction({ text })));
      const result = await leavesBUnchanged(async () => ok(await browser.run(() => bulkCreatePromptsAction({ lines: lines.join("\n"), tags: ["bulk"] }))));
      expect(result).toEqual({ created: 2, skipped: 0 });
      const stored = await db().prompt.findMany({ where: { text: { in: lines } }, select: { workspaceId: true } });
      expect(stored.filter((p) => p.workspaceId === A.id)).toHaveLength(2);
    });

    it("cannot delete B's prompts", async () => {
      await leavesBUnchanged(async () => refused(await browser.run(() => deletePromptsAction({ promptIds: B.promptIds })), ...NOT_YOURS));
      await leavesBUnchanged(async () => refused(await browser.run(() => deletePromptsAction({ promptIds: [B.promptIds[1]!] })), ...NOT_YOURS));
    });
  });

  describe("members", () => {
    it("lists only A's members and invitations", async () => {
      ok(await alice.browser.run(() => inviteMemberAction({ email: `listed.${tag}@example.com`, role: "viewer" })));
      const { members, invitations } = ok(await browser.run(() => listMembersAction()));
      const expected = await db().membership.findMany({ where: { workspaceId: A.id } });
      expect(members.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
      expect(members.map((m) => m.user.email)).not.toContain(bob.email);
      expect(members.map((m) => m.user.email)).not.toContain(bea.email);
      expect(invitations.map((i) => i.email)).toContain(`listed.${tag}@example.com`);
      expect(invitations.map((i) => i.email)).not.toContain("pending.b@example.com");
      expect(invitations.map((i) => i.id)).not.toContain(B.invitationId);
    });

    it("invites into A only, even someone who is a member of B", async () => {
      const invitation = await leavesBUnchanged(async () => ok(await browser.run(() => inviteMemberAction({ email: bea.email, role: "member" }))));
      expect((await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } })).workspaceId).toBe(A.id);
    });

    it("cannot revoke B's invitation", async () => {
      await leavesBUnchanged(async () => refused(await browser.run(() => revokeInvitationAction({ invitationId: B.invitationId })), ...NOT_YOURS));
    });

    it("cannot change the role of B's members", async () => {
      for (const [membershipId, role] of [
        [B.memberMembershipId, "owner"],
        [B.memberMembershipId, "viewer"],
        [B.ownerMembershipId, "viewer"],
      ] as const) {
        await leavesBUnchanged(async () => refused(await browser.run(() => changeMemberRoleAction({ membershipId, role })), ...NOT_YOURS));
      }
    });

    it("cannot remove B's members", async () => {
      for (const membershipId of [B.memberMembershipId, B.ownerMembershipId]) {
        await leavesBUnchanged(async () => refused(await browser.run(() => removeMemberAction({ membershipId })), ...NOT_YOURS));
      }
    });
  });

  describe("workspaces", () => {
    it("cannot switch to B: the cookie is not set to B by the action and the context stays A", async () => {
      const cookieBefore = browser.cookie(WORKSPACE_COOKIE);
      await leavesBUnchanged(async () => refused(await browser.run(() => switchWorkspaceAction({ workspaceId: B.id })), ...NOT_YOURS));
      expect(browser.cookie(WORKSPACE_COOKIE)).toBe(cookieBefore);
      const brands = ok(await browser.run(() => listBrandsAction()));
      expect(new Set(brands.map((b) => b.workspaceId))).toEqual(new Set([A.id]));
    });
  });
});

describe("switching between one's own workspaces", () => {
  it("works for a workspace one belongs to, and the active workspace then scopes every action", async () => {
    const carl = await signUp({ name: "Carl Two-Hats", workspaceName: "First" });
    const second = await signUp({ name: "Dora Second", workspaceName: "Second" });
    const { token } = await invite(second, carl.email, "viewer");
    ok(await carl.browser.run(() => acceptInvitationAction({ inviteToken: token })));
    expect(carl.browser.cookie(WORKSPACE_COOKIE)).toBe(second.workspaceId);
    expect(ok(await carl.browser.run(() => listMembersAction())).me.role).toBe("viewer");

    ok(await carl.browser.run(() => switchWorkspaceAction({ workspaceId: carl.workspaceId })));
    expect(carl.browser.cookie(WORKSPACE_COOKIE)).toBe(carl.workspaceId);
    expect(ok(await carl.browser.run(() => listMembersAction())).me.role).toBe("owner");
  });
});

describe("a cookie naming a workspace one is not a member of", () => {
  const LEFT = /no longer a member of the workspace this page shows/;

  it("forged to name B: every action is refused and changes nothing in A or B; switching to A goes on", async () => {
    const browser = newBrowser();
    ok(await browser.run(() => signInAction({ email: alice.email, password: PASSWORD })));
    browser.setCookie(WORKSPACE_COOKIE, B.id);
    const [a, b] = [await snapshotWorkspace(A.id), await snapshotWorkspace(B.id)];
    expect(refused(await browser.run(() => listBrandsAction()), "forbidden").message).toMatch(LEFT);
    expect(refused(await browser.run(() => createPromptAction({ text: "Which workspace gets this prompt?" })), "forbidden").message).toMatch(LEFT);
    expect(refused(await browser.run(() => inviteMemberAction({ email: "forged.cookie@example.com", role: "admin" })), "forbidden").message).toMatch(LEFT);
    expect([await snapshotWorkspace(A.id), await snapshotWorkspace(B.id)]).toEqual([a, b]);

    ok(await browser.run(() => switchWorkspaceAction({ workspaceId: A.id })));
    expect(browser.cookie(WORKSPACE_COOKIE)).toBe(A.id);
    expect(new Set(ok(await browser.run(() => listBrandsAction())).map((brand) => brand.workspaceId))).toEqual(new Set([A.id]));
  });

  it("after one was removed from it: the page's change is refused, not made in one's other workspace", async () => {
    const carl = await signUp({ name: "Carl Removed", workspaceName: "Carl's own" });
    const xena = await signUp({ name: "Xena Owner", workspaceName: "Xena's" });
    const { token } = await invite(xena, carl.email, "admin");
    ok(await carl.browser.run(() => acceptInvitationAction({ inviteToken: token })));
    expect(carl.browser.cookie(WORKSPACE_COOKIE)).toBe(xena.workspaceId);
    const membership = await db().membership.findFirstOrThrow({ where: { workspaceId: xena.workspaceId, userId: carl.userId } });
    ok(await xena.browser.run(() => removeMemberAction({ membershipId: membership.id })));

    // Carl's tab still shows Xena's workspace; what he does there must not land in his own.
    const [own, xenas] = [await snapshotWorkspace(carl.workspaceId), await snapshotWorkspace(xena.workspaceId)];
    expect(refused(await carl.browser.run(() => createPromptAction({ text: "Meant for Xena's workspace" })), "forbidden").message).toMatch(LEFT);
    expect(refused(await carl.browser.run(() => createBrandAction({ name: "Meant for Xena" })), "forbidden").message).toMatch(LEFT);
    expect([await snapshotWorkspace(carl.workspaceId), await snapshotWorkspace(xena.workspaceId)]).toEqual([own, xenas]);

    // The dashboard sends such a browser to /workspace/left, which clears the cookie: Carl goes on in his own.
    const response = await carl.browser.run(() => leftWorkspace(new Request("http://beacon.test/workspace/left")));
    expect([response.status, response.headers.get("location")]).toEqual([303, "http://beacon.test/"]);
    expect(carl.browser.cookie(WORKSPACE_COOKIE)).toBeUndefined();
    expect(ok(await carl.browser.run(() => listMembersAction())).me.role).toBe("owner");
    // The route clears only a cookie naming a workspace one has left.
    ok(await carl.browser.run(() => switchWorkspaceAction({ workspaceId: carl.workspaceId })));
    await carl.browser.run(() => leftWorkspace(new Request("http://beacon.test/workspace/left")));
    expect(carl.browser.cookie(WORKSPACE_COOKIE)).toBe(carl.workspaceId);
  });
});

describe("invitation links", () => {
  it("accepted at sign-up by the invited address: joins A with the invited role and creates no other workspace", async () => {
    const email = uniqueEmail("carol");
    const { id, token } = await invite(alice, email, "viewer");
    const before = await countRows();

    const carol = await signUp({ name: "Carol Joiner", email, inviteToken: token });

    expect(carol.workspaceId).toBe(A.id);
    expect(await db().membership.findMany({ where: { userId: carol.userId }, select: { workspaceId: true, role: true } })).toEqual([
      { workspaceId: A.id, role: "viewer" },
    ]);
    expect((await countRows()).workspaces).toBe(before.workspaces);
    expect(await db().invitation.findUniqueOrThrow({ where: { id } })).toMatchObject({ acceptedById: carol.userId, acceptedAt: expect.any(Date) });
    expect(ok(await carol.browser.run(() => listMembersAction())).me).toEqual({ userId: carol.userId, role: "viewer" });
  });

  it("accepted by a signed-in person with the invited address: adds the membership with the invited role", async () => {
    const dave = await signUp({ name: "Dave Existing" });
    const { token } = await invite(alice, dave.email, "admin");
    const { workspaceId } = ok(await dave.browser.run(() => acceptInvitationAction({ inviteToken: token })));
    expect(workspaceId).toBe(A.id);
    expect((await db().membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: A.id, userId: dave.userId } } })).role).toBe("admin");
    expect(ok(await dave.browser.run(() => listMembersAction())).me.role).toBe("admin");
  });

  it("refuses another address, at sign-up and when signed in, and leaves the link usable", async () => {
    const erinEmail = uniqueEmail("erin");
    const { id, token } = await invite(alice, erinEmail, "member");
    const mallory = await signUp({ name: "Mallory Other" });
    const before = await countRows();

    const browser = newBrowser();
    const atSignUp = await browser.run(() => signUpAction({ name: "Mallory Again", email: uniqueEmail("mallory"), password: PASSWORD, inviteToken: token }));
    expectFieldError(atSignUp, "email", new RegExp(`invitation is for ${erinEmail}`));
    expect(browser.cookies()).toEqual([]);

    const signedIn = refused(await mallory.browser.run(() => acceptInvitationAction({ inviteToken: token })), "bad_request");
    expect(signedIn.message).toMatch(/invitation is for/);

    expect(await countRows()).toEqual(before);
    expect(await db().membership.findFirst({ where: { workspaceId: A.id, userId: mallory.userId } })).toBeNull();
    expect(await db().invitation.findUniqueOrThrow({ where: { id } })).toMatchObject({ acceptedAt: null, revokedAt: null });

    const erin = await signUp({ name: "Erin Right", email: erinEmail, inviteToken: token });
    expect((await db().membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: A.id, userId: erin.userId } } })).role).toBe("member");
  });

  it("refuses a link that was already used", async () => {
    const email = uniqueEmail("used");
    const { token } = await invite(alice, email, "member");
    const first = await signUp({ name: "First User", email, inviteToken: token });
    const other = await signUp({ name: "Second Try" });
    const before = await countRows();

    refused(await first.browser.run(() => acceptInvitationAction({ inviteToken: token })), "bad_request", "not_found");
    refused(await other.browser.run(() => acceptInvitationAction({ inviteToken: token })), "bad_request", "not_found");
    const browser = newBrowser();
    refused(await browser.run(() => signUpAction({ name: "Late Comer", email: uniqueEmail("late"), password: PASSWORD, inviteToken: token })), "bad_request");

    expect(await countRows()).toEqual(before);
    expect(await db().membership.findFirst({ where: { workspaceId: A.id, userId: other.userId } })).toBeNull();
  });

  it("refuses a revoked link", async () => {
    const email = uniqueEmail("frank");
    const { id, token } = await invite(alice, email, "admin");
    ok(await alice.browser.run(() => revokeInvitationAction({ invitationId: id })));
    const before = await countRows();

    const browser = newBrowser();
    refused(await browser.run(() => signUpAction({ name: "Frank Revoked", email, password: PASSWORD, inviteToken: token })), "bad_request");
    expect(browser.cookies()).toEqual([]);
    expect(await countRows()).toEqual(before);
    expect(await db().user.findUnique({ where: { email } })).toBeNull();

    // Also once Frank has an account of his own.
    const frank = await signUp({ name: "Frank Revoked", email });
    refused(await frank.browser.run(() => acceptInvitationAction({ inviteToken: token })), "bad_request", "not_found");
    expect(await db().membership.findFirst({ where: { workspaceId: A.id, userId: frank.userId } })).toBeNull();
  });

  it("refuses an expired link", async () => {
    const email = uniqueEmail("gina");
    const { id, token } = await invite(alice, email, "member");
    // No action lets time pass: age the invitation in the database.
    await db().invitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const before = await countRows();

    const browser = newBrowser();
    refused(await browser.run(() => signUpAction({ name: "Gina Late", email, password: PASSWORD, inviteToken: token })), "bad_request");
    expect(await countRows()).toEqual(before);

    const gina = await signUp({ name: "Gina Late", email });
    const error = refused(await gina.browser.run(() => acceptInvitationAction({ inviteToken: token })), "bad_request", "not_found");
    expect(error.message).toMatch(/expired/i);
    expect(await db().membership.findFirst({ where: { workspaceId: A.id, userId: gina.userId } })).toBeNull();
  });

  it("refuses a made-up token", async () => {
    const person = await signUp({ name: "Guess Work" });
    refused(await person.browser.run(() => acceptInvitationAction({ inviteToken: "made-up-token" })), "not_found", "bad_request");
    expect(await db().membership.count({ where: { userId: person.userId } })).toBe(1);
  });
});
