import { describe, expect, it } from "vitest";
import { apiKeyRole, canCreateApiKey, canManageBranding, canManageShareLinks, canRetryCapture, canRevokeApiKey, canRunSetup, canStartCheck, type Role } from "@/lib/permissions/permissions";

describe("API key permissions", () => {
  it.each<[Parameters<typeof apiKeyRole>[0], Role, Role]>([
    ["read", "owner", "viewer"],
    ["write", "owner", "member"],
    ["admin", "owner", "admin"],
    ["admin", "admin", "admin"],
    ["admin", "member", "member"],
    ["write", "viewer", "viewer"],
    ["read", "viewer", "viewer"],
  ])("a %s key of a %s acts as %s", (scope, memberRole, expected) => {
    expect(apiKeyRole(scope, memberRole)).toBe(expected);
  });

  it("judges a key with the same helpers as its member: a write key starts checks, only an admin key retries", () => {
    const key = (scope: Parameters<typeof apiKeyRole>[0], role: Role) => ({ userId: "u", role: apiKeyRole(scope, role) });
    expect(canStartCheck(key("read", "owner"))).toBe(false);
    expect(canStartCheck(key("write", "member"))).toBe(true);
    expect(canRetryCapture(key("write", "owner"))).toBe(false);
    expect(canRetryCapture(key("admin", "owner"))).toBe(true);
    expect(canRetryCapture(key("admin", "member"))).toBe(false);
  });

  it("lets no one create a key that could do more than they can", () => {
    const allowed = (role: Role) => (["read", "write", "admin"] as const).filter((scope) => canCreateApiKey({ userId: "u", role }, scope));
    expect(allowed("viewer")).toEqual(["read"]);
    expect(allowed("member")).toEqual(["read", "write"]);
    expect(allowed("admin")).toEqual(["read", "write", "admin"]);
    expect(allowed("owner")).toEqual(["read", "write", "admin"]);
  });

  it("lets admins revoke any key and everyone else only their own", () => {
    expect(canRevokeApiKey({ userId: "a", role: "admin" }, { createdById: "b" })).toBe(true);
    expect(canRevokeApiKey({ userId: "m", role: "member" }, { createdById: "b" })).toBe(false);
    expect(canRevokeApiKey({ userId: "v", role: "viewer" }, { createdById: "v" })).toBe(true);
    expect(canRevokeApiKey({ userId: null, role: "member" }, { createdById: null })).toBe(false);
  });
});

describe("the first-run wizard", () => {
  it("is for those who may both edit brands and prompts and start checks: not viewers, nor read keys", () => {
    const roles: Role[] = ["viewer", "member", "admin", "owner"];
    expect(roles.filter((role) => canRunSetup({ userId: "u", role }))).toEqual(["member", "admin", "owner"]);
    expect(canRunSetup({ userId: null, role: apiKeyRole("read", "owner") })).toBe(false);
  });
});

describe("share links and branding", () => {
  it("are for admins and owners only: a link reaches people outside the workspace", () => {
    const roles: Role[] = ["viewer", "member", "admin", "owner"];
    expect(roles.filter((role) => canManageShareLinks({ userId: "u", role }))).toEqual(["admin", "owner"]);
    expect(roles.filter((role) => canManageBranding({ userId: "u", role }))).toEqual(["admin", "owner"]);
  });
});
