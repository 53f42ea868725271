// API keys belong to a member and carry a scope (issue 9): a key acts with the lower of its
// scope's role (read -> viewer, write -> member, admin -> admin) and its member's current role,
// through the same can… helpers as the UI, and dies with the membership. Keys are made through
// the Settings actions by people who signed up and joined through invitation links; the REST
// routes are called with real Requests. No worker runs, so checks stay queued.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { callRoute, captureJob, expectApiError, removeCaptureJob, storedRows, twoPartBody, type ApiResult } from "../support/api-fixtures";
import { capturesOf, checkRow, eventsOf } from "../support/check-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { acrossMigration, type Sql } from "../support/partial-migrations";
import { join, membershipOf, ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { POST as cancelCaptureRoute } from "@/app/api/v1/captures/[id]/cancel/route";
import { POST as retryCaptureRoute } from "@/app/api/v1/captures/[id]/retry/route";
import { GET as getCaptureRoute } from "@/app/api/v1/captures/[id]/route";
import { GET as listBrandsRoute } from "@/app/api/v1/brands/route";
import { POST as cancelCheckRoute } from "@/app/api/v1/checks/[id]/cancel/route";
import { GET as getCheckRoute } from "@/app/api/v1/checks/[id]/route";
import { GET as listChecksRoute, POST as createCheckRoute } from "@/app/api/v1/checks/route";
import { GET as listPromptsRoute } from "@/app/api/v1/prompts/route";
import { GET as listProvidersRoute } from "@/app/api/v1/providers/route";
import { createApiKeyAction, listApiKeysAction, revokeApiKeyAction } from "@/lib/actions/api-keys";
import { createBrandAction } from "@/lib/actions/brands";
import { changeMemberRoleAction, removeMemberAction } from "@/lib/actions/members";
import { createPromptAction } from "@/lib/actions/prompts";
import type { ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { db } from "@/lib/db/prisma";
import { runCheckOperation } from "@/lib/checks/operations";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let owner: Person;
let admin: Person;
let member: Person;
let viewer: Person;
let ownerAdminKey: string;
let provider: string;

/** A key `person` creates in Settings; returns the key and its id. */
async function keyOf(person: Person, scope: ApiKeyScope, name = `${person.name} ${scope}`) {
  const created = ok(await person.browser.run(() => createApiKeyAction({ name, scope })));
  expect(created.scope).toBe(scope);
  return { key: created.key, id: created.id };
}

const get = (route: Parameters<typeof callRoute>[0], path: string, apiKey: string) => callRoute(route, { path, apiKey });
const onId = (route: Parameters<typeof callRoute<{ id: string }>>[0], template: string, method: "GET" | "POST") => (id: string, apiKey: string) =>
  callRoute(route, { method, path: template.replace(":id", id), apiKey, params: { id } });
const getCheck = onId(getCheckRoute, "/api/v1/checks/:id", "GET");
const getCapture = onId(getCaptureRoute, "/api/v1/captures/:id", "GET");
const cancelCheck = onId(cancelCheckRoute, "/api/v1/checks/:id/cancel", "POST");
const cancelCapture = onId(cancelCaptureRoute, "/api/v1/captures/:id/cancel", "POST");
const retryCapture = onId(retryCaptureRoute, "/api/v1/captures/:id/retry", "POST");

const postCheck = (apiKey: string) =>
  callRoute(createCheckRoute, { method: "POST", path: "/api/v1/checks", apiKey, headers: { "idempotency-key": `scopes-${randomUUID()}` }, json: { providers: [provider], samples: 2 } });

async function startCheck(apiKey: string): Promise<string> {
  const result = await postCheck(apiKey);
  expect(result.status, JSON.stringify(result.body)).toBe(202);
  return result.body.check.id;
}

/** A check started with `apiKey` and one of its captures cancelled (by the owner's admin key), so it can be retried. */
async function checkWithCancelledCapture(apiKey = ownerAdminKey) {
  const checkId = await startCheck(apiKey);
  const [capture] = await capturesOf(checkId);
  expect((await cancelCapture(capture!.id, ownerAdminKey)).status).toBe(202);
  await removeCaptureJob(capture!.id);
  return { checkId, captureId: capture!.id };
}

/** Everything a refused cancel or retry could have changed. */
const stateOf = async (checkId: string) => ({ rows: await storedRows(), check: await checkRow(checkId), captures: await capturesOf(checkId), events: await eventsOf(checkId) });

/** Runs `act`, expects a 403 and proves that nothing changed. */
async function forbidden(checkId: string, act: () => Promise<ApiResult>) {
  const before = await stateOf(checkId);
  const result = await act();
  const error = expectApiError(result, 403, { code: "forbidden" });
  expect(await stateOf(checkId)).toEqual(before);
  return error;
}

beforeAll(async () => {
  owner = await signUp({ name: "Olivia Owner", workspaceName: "Scopes" });
  admin = await join(owner, "admin", "Adam Admin");
  member = await join(owner, "member", "Mia Member");
  viewer = await join(owner, "viewer", "Vic Viewer");
  ok(await owner.browser.run(() => createBrandAction({ name: "Scopes Brand" })));
  ok(await owner.browser.run(() => createPromptAction({ text: "Which scoped tool is best?" })));
  ownerAdminKey = (await keyOf(owner, "admin")).key;
  const providers = await get(listProvidersRoute, "/api/v1/providers", ownerAdminKey);
  provider = providers.body.providers.find((p: { enabled: boolean; configured: boolean }) => p.enabled && p.configured).name;
});

describe("a read key", () => {
  it("reads everything the workspace has", async () => {
    const { key } = await keyOf(owner, "read");
    const checkId = await startCheck(ownerAdminKey);
    const [capture] = await capturesOf(checkId);
    for (const [route, path] of [
      [listChecksRoute, "/api/v1/checks"],
      [listBrandsRoute, "/api/v1/brands"],
      [listPromptsRoute, "/api/v1/prompts"],
      [listProvidersRoute, "/api/v1/providers"],
    ] as const) {
      expect((await get(route, path, key)).status, path).toBe(200);
    }
    expect((await getCheck(checkId, key)).body.check.id).toBe(checkId);
    expect((await getCapture(capture!.id, key)).body.capture.id).toBe(capture!.id);
  });

  it("is refused (403) starting a check, cancelling and retrying, even the owner's, and nothing is stored", async () => {
    const { key } = await keyOf(owner, "read", "owner's read key");
    const { checkId, captureId } = await checkWithCancelledCapture();
    const queued = (await capturesOf(checkId)).find((c) => c.status === "queued")!;

    const start = await forbidden(checkId, () => postCheck(key));
    expect(start.message).toMatch(/acts as viewer .*scope is read.*an owner/);
    await forbidden(checkId, () => cancelCheck(checkId, key));
    await forbidden(checkId, () => cancelCapture(queued.id, key));
    await forbidden(checkId, () => retryCapture(captureId, key));
    expect(await captureJob(captureId)).toBeNull();
  });
});

describe("a write key", () => {
  it("starts checks as its member, and cancels those but not someone else's", async () => {
    const { key, id } = await keyOf(member, "write");
    const checkId = await startCheck(key);
    expect(await checkRow(checkId)).toMatchObject({ startedById: member.userId, apiKeyId: id });
    expect((await getCheck(checkId, key)).body.check.startedBy).toBe("Mia Member (API key)");

    const ownersCheck = await startCheck(ownerAdminKey);
    await forbidden(ownersCheck, () => cancelCheck(ownersCheck, key));

    const cancelled = await cancelCheck(checkId, key);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(202);
    await runCheckOperation(cancelled.body.operationId); // what a worker does next
    expect((await checkRow(checkId)).status).toBe("cancelled");
  });

  it("cannot retry (admin only), not even an owner's write key", async () => {
    const { checkId, captureId } = await checkWithCancelledCapture();
    for (const person of [member, owner]) {
      const { key } = await keyOf(person, "write");
      const error = await forbidden(checkId, () => retryCapture(captureId, key));
      expect(error.message).toMatch(/acts as member/);
    }
    expect((await retryCapture(captureId, ownerAdminKey)).status).toBe(202);
  });
});

describe("an admin key", () => {
  it("acts as member once its admin is demoted to member", async () => {
    const { key } = await keyOf(admin, "admin");
    const first = await checkWithCancelledCapture();
    expect((await retryCapture(first.captureId, key)).status).toBe(202);

    ok(await owner.browser.run(async () => changeMemberRoleAction({ membershipId: (await membershipOf(admin.userId, owner.workspaceId)).id, role: "member" })));

    const second = await checkWithCancelledCapture();
    const error = await forbidden(second.checkId, () => retryCapture(second.captureId, key));
    expect(error.message).toMatch(/acts as member .*scope is admin.*a member/);
    await forbidden(second.checkId, () => cancelCheck(second.checkId, key));
    expect((await postCheck(key)).status).toBe(202);
    const listed = ok(await owner.browser.run(() => listApiKeysAction())).keys.find((k) => k.createdBy?.id === admin.userId && k.scope === "admin");
    expect(listed?.actsAs).toBe("member");
  });
});

describe("removing a member", () => {
  it("revokes their keys in the same step: the next request gets a 401 and stores nothing", async () => {
    const leaver = await join(owner, "member", "Lee Leaver");
    const keys = [await keyOf(leaver, "read"), await keyOf(leaver, "write")];
    const others = await db().apiKey.count({ where: { workspaceId: owner.workspaceId, revokedAt: null, createdById: { not: leaver.userId } } });
    expect((await get(listChecksRoute, "/api/v1/checks", keys[1]!.key)).status).toBe(200);

    ok(await owner.browser.run(async () => removeMemberAction({ membershipId: (await membershipOf(leaver.userId, owner.workspaceId)).id })));

    const rows = await db().apiKey.findMany({ where: { id: { in: keys.map((k) => k.id) } } });
    expect(rows.map((r) => r.revokedAt)).toEqual([expect.any(Date), expect.any(Date)]);
    expect(await db().apiKey.count({ where: { workspaceId: owner.workspaceId, revokedAt: null, createdById: { not: leaver.userId } } })).toBe(others);
    for (const { key } of keys) {
      expectApiError(await get(listChecksRoute, "/api/v1/checks", key), 401, { code: "unauthorized" });
      const before = await storedRows();
      expectApiError(await postCheck(key), 401, { code: "unauthorized" });
      expect(await storedRows()).toEqual(before);
    }
  });

  it("while their key's request is still arriving (authenticated, its body not yet read) starts nothing: the check is refused and nothing is stored", async () => {
    const slow = await join(owner, "member", "Sam Slow");
    const { key } = await keyOf(slow, "write");
    // The route authenticates, starts reading the body, and waits for the rest.
    const text = JSON.stringify({ providers: [provider], samples: 1 });
    const { body, started, sendRest } = twoPartBody(text.slice(0, 10), text.slice(10));
    const before = await storedRows();
    const posting = callRoute(createCheckRoute, { method: "POST", path: "/api/v1/checks", apiKey: key, headers: { "idempotency-key": `slow-${randomUUID()}`, "content-type": "application/json" }, body });
    await started;
    ok(await owner.browser.run(async () => removeMemberAction({ membershipId: (await membershipOf(slow.userId, owner.workspaceId)).id })));
    sendRest();

    expectApiError(await posting, 403, { code: "forbidden" });
    expect(await storedRows()).toEqual(before);
  });

  it("while their key's check is being created waits for it: the check is whole, and the key is revoked after", async () => {
    const busy = await join(owner, "member", "Bea Busy");
    const { key, id } = await keyOf(busy, "write");
    // The worst moment: the check has read (and share-locked) its member and key, brand, prompts and providers.
    const gate = gateAt("check:create-after-read");
    const posting = postCheck(key);
    await gate.reached;
    const removing = owner.browser.run(async () => removeMemberAction({ membershipId: (await membershipOf(busy.userId, owner.workspaceId)).id }));
    await waitForLockWaiter();
    gate.open();

    const result = await posting;
    expect(result.status).toBe(202);
    ok(await removing);
    expect(await capturesOf(result.body.check.id), "one provider, two samples").toHaveLength(2);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();
    expectApiError(await postCheck(key), 401, { code: "unauthorized" });
  });

  it("leaves a key that outlived its membership some other way (account deleted) unable to authenticate", async () => {
    const gone = await join(owner, "member", "Gus Gone");
    const { key } = await keyOf(gone, "write");
    await db().user.delete({ where: { id: gone.userId } }); // memberships cascade; no action does this yet
    expectApiError(await get(listBrandsRoute, "/api/v1/brands", key), 401, { code: "unauthorized" });
  });
});

describe("Settings → API keys", () => {
  it("offers each role the scopes it may create, and refuses the others without storing a key", async () => {
    const scopes = async (person: Person) => ok(await person.browser.run(() => listApiKeysAction())).scopes;
    expect(await scopes(owner)).toEqual(["read", "write", "admin"]);
    expect(await scopes(member)).toEqual(["read", "write"]);
    expect(await scopes(viewer)).toEqual(["read"]);

    const count = () => db().apiKey.count({ where: { workspaceId: owner.workspaceId } });
    const before = await count();
    refused(await viewer.browser.run(() => createApiKeyAction({ name: "viewer write", scope: "write" })), "forbidden");
    refused(await viewer.browser.run(() => createApiKeyAction({ name: "viewer admin", scope: "admin" })), "forbidden");
    refused(await member.browser.run(() => createApiKeyAction({ name: "member admin", scope: "admin" })), "forbidden");
    expect(await count()).toBe(before);
    await keyOf(viewer, "read");
  });

  it("shows every key with its creator, scope, creation and last use; members revoke only their own, admins any", async () => {
    const mine = await keyOf(member, "read", "member's own");
    const owners = await keyOf(owner, "write", "owner's key");
    expect((await get(listBrandsRoute, "/api/v1/brands", mine.key)).status).toBe(200);

    const seen = ok(await member.browser.run(() => listApiKeysAction())).keys;
    const row = (id: string) => seen.find((k) => k.id === id)!;
    expect(row(mine.id)).toMatchObject({ name: "member's own", scope: "read", createdBy: { id: member.userId, name: "Mia Member" }, actsAs: "viewer", canRevoke: true, lastUsedAt: expect.any(Date), createdAt: expect.any(Date) });
    expect(row(owners.id)).toMatchObject({ scope: "write", createdBy: { name: "Olivia Owner" }, canRevoke: false, lastUsedAt: null });
    expect(JSON.stringify(seen)).not.toContain(mine.key);

    refused(await member.browser.run(() => revokeApiKeyAction({ apiKeyId: owners.id })), "forbidden");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: owners.id } })).revokedAt).toBeNull();
    ok(await member.browser.run(() => revokeApiKeyAction({ apiKeyId: mine.id })));
    expectApiError(await get(listBrandsRoute, "/api/v1/brands", mine.key), 401);

    const another = await keyOf(member, "write", "member's second");
    ok(await owner.browser.run(() => revokeApiKeyAction({ apiKeyId: another.id })));
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: another.id } })).revokedAt).not.toBeNull();
  });
});

describe("the api_key_scopes migration", () => {
  it("keeps existing keys as admin keys of their creator, gives the CLI's to the first owner, and revokes those whose creator left", async () => {
    const key = async (sql: Sql, workspaceId: string, name: string, createdById: string | null, revokedAt: string | null = null) =>
      (await sql(`INSERT INTO api_keys ("workspaceId", name, prefix, "keyHash", "createdById", "revokedAt") VALUES ($1, $2, 'bk_x', $2, $3, $4) RETURNING id`, [workspaceId, name, createdById, revokedAt])).rows[0].id as string;
    await acrossMigration(
      "20261130132000_api_key_scopes",
      async (sql) => {
        for (const id of ["first-owner", "second-owner", "an-admin", "left"]) await sql(`INSERT INTO users (id, name, email) VALUES ($1, $1, $1 || '@example.com')`, [id]);
        const workspaceId: string = (await sql(`INSERT INTO workspaces (slug, name) VALUES ('old', 'Old') RETURNING id`)).rows[0].id;
        await sql(
          `INSERT INTO memberships ("workspaceId", "userId", role, "createdAt") VALUES ($1, 'second-owner', 'owner', now()), ($1, 'first-owner', 'owner', now() - interval '1 day'), ($1, 'an-admin', 'admin', now())`,
          [workspaceId],
        );
        const keys = {
          admins: await key(sql, workspaceId, "admin's", "an-admin"),
          cli: await key(sql, workspaceId, "cli", null),
          left: await key(sql, workspaceId, "left", "left"),
          old: await key(sql, workspaceId, "old", "an-admin", "2026-01-01 00:00:00"),
        };
        return { workspaceId, keys };
      },
      async (sql, { workspaceId, keys: ids }) => {
        const { rows } = await sql(`SELECT id, scope::text, "createdById", "revokedAt"::text AS "revokedAt" FROM api_keys`);
        const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
        expect(byId[ids.admins]).toMatchObject({ scope: "admin", createdById: "an-admin", revokedAt: null });
        expect(byId[ids.cli]).toMatchObject({ scope: "admin", createdById: "first-owner", revokedAt: null });
        expect(byId[ids.left]).toMatchObject({ scope: "admin", createdById: "left", revokedAt: expect.any(String) });
        expect(byId[ids.old].revokedAt).toBe("2026-01-01 00:00:00");
        const fresh = await key(sql, workspaceId, "new", "an-admin");
        expect((await sql(`SELECT scope::text FROM api_keys WHERE id = $1`, [fresh])).rows[0].scope).toBe("write");
      },
    );
  });
});

describe("a key's last use", () => {
  it("is recorded by the database's clock, at most once a minute, also from a web server whose clock runs two hours ahead", async () => {
    const { key, id } = await keyOf(owner, "read", "clock key");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 3600_000 });
    try {
      expect((await get(listBrandsRoute, "/api/v1/brands", key)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const ahead = async () =>
      (await db().$queryRaw<{ ahead: number }[]>`SELECT extract(epoch FROM "lastUsedAt" - (now() AT TIME ZONE 'UTC'))::float8 AS ahead FROM api_keys WHERE id = ${id}::uuid`)[0]!.ahead;
    // A future time would keep every other web server from recording use for two hours.
    expect(await ahead()).toBeLessThan(5);
    const first = (await db().apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect((await get(listBrandsRoute, "/api/v1/brands", key)).status).toBe(200);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt, "within the minute: not written again").toEqual(first);
  });
});
