// Roles inside one workspace: owner > admin > member > viewer. Viewers only read, members edit
// the tracking setup, admins manage members, only owners touch the owner role, and a workspace
// always keeps an owner.
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { invite, join, membershipOf, ok, refused, signUp, snapshotWorkspace, uniqueEmail, type AnyAction, type Person } from "../support/workspace-fixtures";
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
import { db } from "@/lib/db/prisma";
import { findInvitation } from "@/lib/workspaces/members";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let owner: Person;
let admin: Person;
let member: Person;
let viewer: Person;
let workspaceId: string;
let brandId: string;
let promptId: string;

beforeAll(async () => {
  owner = await signUp({ name: "Olivia Owner", workspaceName: "Roles" });
  workspaceId = owner.workspaceId;
  admin = await join(owner, "admin", "Adam Admin");
  member = await join(owner, "member", "Mia Member");
  viewer = await join(owner, "viewer", "Vic Viewer");
  brandId = ok(await owner.browser.run(() => createBrandAction({ name: "Roles Brand", competitors: [{ name: "Rival" }] }))).id;
  promptId = ok(await owner.browser.run(() => createPromptAction({ text: "Which role-based tool is best?" }))).id;
});

/** Runs `act` and proves nothing in the workspace changed. */
async function changesNothing<T>(act: () => Promise<T>): Promise<T> {
  const before = await snapshotWorkspace(workspaceId);
  const result = await act();
  expect(await snapshotWorkspace(workspaceId)).toEqual(before);
  return result;
}

describe("a viewer", () => {
  it("reads brands, prompts and members", async () => {
    expect(ok(await viewer.browser.run(() => listBrandsAction())).map((b) => b.id)).toContain(brandId);
    expect(ok(await viewer.browser.run(() => listPromptsAction({}))).items.map((p) => p.id)).toContain(promptId);
    expect(ok(await viewer.browser.run(() => listMembersAction())).me).toEqual({ userId: viewer.userId, role: "viewer" });
  });

  it.each<[string, AnyAction]>([
    ["create a brand", () => createBrandAction({ name: "Viewer Brand" })],
    ["update a brand", () => updateBrandAction({ brandId, brand: { name: "Renamed by viewer" } })],
    ["delete a brand", () => deleteBrandAction({ brandId })],
    ["create a prompt", () => createPromptAction({ text: "A viewer's question?" })],
    ["update a prompt", () => updatePromptAction({ promptId, prompt: { text: "Rewritten by a viewer?" } })],
    ["bulk-paste prompts", () => bulkCreatePromptsAction({ lines: "First viewer question?\nSecond viewer question?" })],
    ["delete prompts", () => deletePromptsAction({ promptIds: [promptId] })],
    ["invite someone", () => inviteMemberAction({ email: uniqueEmail("viewer-invite"), role: "viewer" })],
  ])("cannot %s", async (_, action) => {
    await changesNothing(async () => refused(await viewer.browser.run(action), "forbidden"));
  });
});

describe("a member", () => {
  it("edits brands and prompts", async () => {
    const brand = ok(await member.browser.run(() => createBrandAction({ name: "Member Brand" })));
    ok(await member.browser.run(() => updateBrandAction({ brandId: brand.id, brand: { name: "Member Brand 2" } })));
    const { id } = ok(await member.browser.run(() => createPromptAction({ text: "A member's question?" })));
    ok(await member.browser.run(() => updatePromptAction({ promptId: id, prompt: { text: "A member's better question?" } })));
    expect(ok(await member.browser.run(() => bulkCreatePromptsAction({ lines: "Member bulk one?\nMember bulk two?" })))).toEqual({ created: 2, skipped: 0 });
    ok(await member.browser.run(() => deletePromptsAction({ promptIds: [id] })));
    ok(await member.browser.run(() => deleteBrandAction({ brandId: brand.id })));
    expect(await db().brand.findUnique({ where: { id: brand.id } })).toBeNull();
    expect((await db().prompt.findUniqueOrThrow({ where: { id } })).deletedAt).not.toBeNull();
  });

  it("cannot invite, revoke, change roles or remove members", async () => {
    const pending = await invite(owner, uniqueEmail("pending"), "viewer");
    const viewerMembership = await membershipOf(viewer.userId, workspaceId);
    const ownMembership = await membershipOf(member.userId, workspaceId);
    for (const action of <AnyAction[]>[
      () => inviteMemberAction({ email: uniqueEmail("member-invite"), role: "viewer" }),
      () => revokeInvitationAction({ invitationId: pending.id }),
      () => changeMemberRoleAction({ membershipId: viewerMembership.id, role: "member" }),
      () => changeMemberRoleAction({ membershipId: ownMembership.id, role: "admin" }),
      () => removeMemberAction({ membershipId: viewerMembership.id }),
    ]) {
      await changesNothing(async () => refused(await member.browser.run(action), "forbidden"));
    }
  });
});

describe("an admin", () => {
  it("invites, changes roles and removes members below owner", async () => {
    const { id } = ok(await admin.browser.run(() => inviteMemberAction({ email: uniqueEmail("by-admin"), role: "admin" })));
    ok(await admin.browser.run(() => revokeInvitationAction({ invitationId: id })));
    const temp = await join(owner, "viewer", "Tim Temp");
    const membership = await membershipOf(temp.userId, workspaceId);
    ok(await admin.browser.run(() => changeMemberRoleAction({ membershipId: membership.id, role: "admin" })));
    expect((await membershipOf(temp.userId, workspaceId)).role).toBe("admin");
    ok(await admin.browser.run(() => removeMemberAction({ membershipId: membership.id })));
    expect(await db().membership.findUnique({ where: { id: membership.id } })).toBeNull();
  });

  it("loses the invitations it sent that it could no longer send: an owner made admin its owner ones, a member removed all", async () => {
    const second = await join(owner, "owner", "Olive Second");
    const asOwner = await invite(second, uniqueEmail("invited-owner"), "owner");
    const asAdmin = await invite(second, uniqueEmail("invited-admin"), "admin");
    const state = async (id: string) => ((await db().invitation.findUniqueOrThrow({ where: { id } })).revokedAt ? "revoked" : "pending");
    const membership = await membershipOf(second.userId, workspaceId);

    ok(await owner.browser.run(() => changeMemberRoleAction({ membershipId: membership.id, role: "admin" })));
    expect([await state(asOwner.id), await state(asAdmin.id)], "an admin may not invite an owner").toEqual(["revoked", "pending"]);

    ok(await owner.browser.run(() => removeMemberAction({ membershipId: membership.id })));
    expect(await state(asAdmin.id)).toBe("revoked");
    expect((await findInvitation(asAdmin.token))?.state).toBe("revoked");
  });

  it("an invitation sent while its sender is being removed does not outlive the removal", async () => {
    const inviter = await join(owner, "admin", "Ivy Inviter");
    const membership = await membershipOf(inviter.userId, workspaceId);
    // The worst moment: the sender's role read, the invitation not written yet.
    const gate = gateAt("invitation:before-insert");
    const sending = inviter.browser.run(() => inviteMemberAction({ email: uniqueEmail("raced"), role: "admin" }));
    await gate.reached;
    const removing = owner.browser.run(() => removeMemberAction({ membershipId: membership.id }));
    // Guarded, the removal waits for the sender's held role; unguarded, it commits first.
    await Promise.race([removing, waitForLockWaiter()]);
    gate.open();
    await sending;
    ok(await removing);
    expect(await db().invitation.count({ where: { workspaceId, invitedById: inviter.userId, revokedAt: null, acceptedAt: null } }), "pending invitations of the removed admin").toBe(0);
  });

  it("cannot grant the owner role, to others or to themselves, nor invite an owner", async () => {
    const memberMembership = await membershipOf(member.userId, workspaceId);
    const adminMembership = await membershipOf(admin.userId, workspaceId);
    for (const action of <AnyAction[]>[
      () => changeMemberRoleAction({ membershipId: memberMembership.id, role: "owner" }),
      () => changeMemberRoleAction({ membershipId: adminMembership.id, role: "owner" }),
      () => inviteMemberAction({ email: uniqueEmail("would-be-owner"), role: "owner" }),
    ]) {
      await changesNothing(async () => refused(await admin.browser.run(action), "forbidden"));
    }
  });

  it("cannot demote or remove an owner", async () => {
    const ownerMembership = await membershipOf(owner.userId, workspaceId);
    for (const action of <AnyAction[]>[
      () => changeMemberRoleAction({ membershipId: ownerMembership.id, role: "viewer" }),
      () => removeMemberAction({ membershipId: ownerMembership.id }),
    ]) {
      await changesNothing(async () => refused(await admin.browser.run(action), "forbidden"));
    }
  });
});

describe("the owner role", () => {
  it("cannot be taken from the last owner, by demotion or removal", async () => {
    const solo = await signUp({ name: "Sole Owner" });
    const membership = await membershipOf(solo.userId, solo.workspaceId);
    for (const action of <AnyAction[]>[
      () => changeMemberRoleAction({ membershipId: membership.id, role: "admin" }),
      () => changeMemberRoleAction({ membershipId: membership.id, role: "viewer" }),
      () => removeMemberAction({ membershipId: membership.id }),
    ]) {
      const before = await snapshotWorkspace(solo.workspaceId);
      const error = refused(await solo.browser.run(action), "bad_request", "conflict", "forbidden");
      expect(error.message).toMatch(/at least one owner/i);
      expect(await snapshotWorkspace(solo.workspaceId)).toEqual(before);
    }
  });

  it("can be handed over: with a second owner, the first may step down", async () => {
    const first = await signUp({ name: "First Owner" });
    const second = await join(first, "owner", "Second Owner");
    const firstMembership = await membershipOf(first.userId, first.workspaceId);
    ok(await first.browser.run(() => changeMemberRoleAction({ membershipId: firstMembership.id, role: "admin" })));
    expect((await membershipOf(first.userId, first.workspaceId)).role).toBe("admin");

    // Now the second owner is the last one.
    const secondMembership = await membershipOf(second.userId, first.workspaceId);
    refused(await second.browser.run(() => changeMemberRoleAction({ membershipId: secondMembership.id, role: "member" })), "bad_request", "conflict");
    refused(await second.browser.run(() => removeMemberAction({ membershipId: secondMembership.id })), "bad_request", "conflict");
    expect((await membershipOf(second.userId, first.workspaceId)).role).toBe("owner");
  });

  it("survives two owners demoting each other at the same moment", async () => {
    const one = await signUp({ name: "Owner One" });
    const two = await join(one, "owner", "Owner Two");
    const oneMembership = await membershipOf(one.userId, one.workspaceId);
    const twoMembership = await membershipOf(two.userId, one.workspaceId);

    // Hold writes to memberships until both requests have done their checks and wait to write,
    // so the two requests overlap for certain instead of by chance. Watched from another session:
    // inside the gate's transaction pg_stat_activity is one snapshot and never shows them.
    const gate = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await gate.connect();
    let results: Awaited<ReturnType<typeof changeMemberRoleAction>>[];
    try {
      await gate.query("BEGIN");
      await gate.query("LOCK TABLE memberships IN EXCLUSIVE MODE");
      const both = Promise.all([
        one.browser.run(() => changeMemberRoleAction({ membershipId: twoMembership.id, role: "admin" })),
        two.browser.run(() => changeMemberRoleAction({ membershipId: oneMembership.id, role: "admin" })),
      ]);
      await waitForLockWaiter(2);
      await gate.query("COMMIT");
      results = await both;
    } finally {
      await gate.end();
    }

    const owners = await db().membership.count({ where: { workspaceId: one.workspaceId, role: "owner" } });
    expect(owners, `owners left; results: ${JSON.stringify(results)}`).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r?.serverError)).toHaveLength(1);
  });
});
