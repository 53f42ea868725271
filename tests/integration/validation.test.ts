// Invalid input is refused with a message on the field it is about (what the forms show next to
// that field), and nothing is stored. Field names are the dotted paths the forms read
// (app/(dashboard)/brands/brand-form-dialog.tsx: `brand.name`, `domains.0`, `competitors.1.name`).
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  countRows,
  expectFieldError,
  ok,
  refused,
  signUp,
  snapshotWorkspace,
  type ActionResult,
  type AnyAction,
  type Person,
} from "../support/workspace-fixtures";
import { GET as chartRoute } from "@/app/api/analytics/[chart]/route";
import { createBrandAction, deleteBrandAction, updateBrandAction } from "@/lib/actions/brands";
import { createApiKeyAction } from "@/lib/actions/api-keys";
import { startCheckAction } from "@/lib/actions/checks";
import { changeMemberRoleAction, removeMemberAction, revokeInvitationAction } from "@/lib/actions/members";
import { bulkCreatePromptsAction, createPromptAction, deletePromptsAction, listPromptsAction, updatePromptAction } from "@/lib/actions/prompts";
import { createScheduleAction } from "@/lib/actions/schedules";
import { createWorkspaceAction, switchWorkspaceAction } from "@/lib/actions/workspaces";
import type { BrandInput } from "@/lib/brands/schemas";
import { db } from "@/lib/db/prisma";
import type { PromptInput } from "@/lib/prompts/schemas";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let me: Person;
let other: Person; // someone else's workspace, for foreign ids
let brandId: string;
let promptIds: string[];
let foreignPromptId: string;

beforeAll(async () => {
  me = await signUp({ name: "Val Idator", workspaceName: "Validation" });
  other = await signUp({ name: "Otto Other", workspaceName: "Elsewhere" });
  brandId = ok(await me.browser.run(() => createBrandAction({ name: "Valid Brand", domains: ["valid.example"], competitors: [{ name: "Rival" }] }))).id;
  ok(await me.browser.run(() => bulkCreatePromptsAction({ lines: "What is the best validator?\nWhich schema library is fastest?" })));
  promptIds = (await db().prompt.findMany({ where: { workspaceId: me.workspaceId }, orderBy: { text: "asc" } })).map((p) => p.id);
  foreignPromptId = ok(await other.browser.run(() => createPromptAction({ text: "A question in another workspace?" }))).id;
  expect(promptIds).toHaveLength(2);
});

/** Runs `act` and proves no row was added and my workspace's rows are exactly as they were. */
async function storesNothing(act: () => Promise<ActionResult>): Promise<ActionResult> {
  const [counts, mine] = [await countRows(), await snapshotWorkspace(me.workspaceId)];
  const result = await act();
  expect(await countRows()).toEqual(counts);
  expect(await snapshotWorkspace(me.workspaceId)).toEqual(mine);
  return result;
}

const validBrand: BrandInput = { name: "Fresh Brand", aliases: ["Fresh"], domains: ["fresh.example"], competitors: [{ name: "Stale Co" }] };

describe("brands", () => {
  it.each<[string, Partial<BrandInput>, string, RegExp]>([
    ["an empty name", { name: "   " }, "name", /enter a name/i],
    ["a domain that is not one", { domains: ["fresh.example", "not a domain"] }, "domains", /domain such as example\.com/i],
    ["two competitors with the same name", { competitors: [{ name: "Stale Co" }, { name: "stale co" }] }, "competitors", /listed twice/i],
    ["a competitor named like the brand", { competitors: [{ name: "fresh brand" }] }, "competitors", /listed twice/i],
    ["21 aliases", { aliases: Array.from({ length: 21 }, (_, i) => `Alias ${i}`) }, "aliases", /at most 20 aliases/i],
  ])("refuses %s when creating", async (_, change, field, message) => {
    const result = await storesNothing(() => me.browser.run(() => createBrandAction({ ...validBrand, ...change })));
    expectFieldError(result, field, message);
  });

  it.each<[string, Partial<BrandInput>, string, RegExp]>([
    ["an empty name", { name: "" }, "brand.name", /enter a name/i],
    ["a domain that is not one", { domains: ["nope"] }, "brand.domains", /domain such as example\.com/i],
    ["two competitors with the same name", { competitors: [{ name: "Rival" }, { name: "RIVAL" }] }, "brand.competitors", /listed twice/i],
  ])("refuses %s when editing", async (_, change, field, message) => {
    const result = await storesNothing(() => me.browser.run(() => updateBrandAction({ brandId, brand: { ...validBrand, ...change } })));
    expectFieldError(result, field, message);
  });

  it("refuses a second brand with a taken name", async () => {
    const result = await storesNothing(() => me.browser.run(() => createBrandAction({ name: "Valid Brand" })));
    expectFieldError(result, "name", /already exists/i);
  });

  it("accepts the valid form (so the refusals above are about the one bad field)", async () => {
    const brand = ok(await me.browser.run(() => createBrandAction(validBrand)));
    expect(brand).toMatchObject({ name: "Fresh Brand", aliases: ["Fresh"], domains: ["fresh.example"] });
    ok(await me.browser.run(() => deleteBrandAction({ brandId: brand.id })));
  });
});

describe("prompts", () => {
  const validPrompt: PromptInput = { text: "Which CRM should a startup pick?", tags: ["buying"], country: "US", language: "en" };

  it.each<[string, Partial<PromptInput>, string, RegExp]>([
    ["a 2-character question", { text: "ab" }, "text", /at least 3 characters/i],
    ["a 200 KB question", { text: "Why? ".repeat(40_000) }, "text", /at most 4000 characters/i],
    ["11 tags", { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, "tags", /at most 10 tags/i],
    ["a bad country code", { country: "USA" }, "country", /two-letter country code/i],
    ["a bad language code", { language: "english please" }, "language", /language code/i],
    ["a city without its country", { country: "", city: "Munich" }, "country", /city's country/i],
    ["a city with a line break", { city: "Mun\nich" }, "city", /line break/i],
  ])("refuses %s when creating", async (_, change, field, message) => {
    const result = await storesNothing(() => me.browser.run(() => createPromptAction({ ...validPrompt, ...change })));
    expectFieldError(result, field, message);
  });

  it("refuses a 2-character question when editing", async () => {
    const result = await storesNothing(() => me.browser.run(() => updatePromptAction({ promptId: promptIds[0]!, prompt: { text: "ab" } })));
    expectFieldError(result, "prompt.text", /at least 3 characters/i);
  });

  it("refuses a question the workspace already has, whatever its case", async () => {
    const result = await storesNothing(() => me.browser.run(() => createPromptAction({ text: "WHAT IS THE BEST VALIDATOR?" })));
    expectFieldError(result, "text", /already exists/i);
  });

  it("refuses a whole bulk paste when one line is invalid", async () => {
    const lines = ["Which form library is best?", "ok", "How do I validate an email address?"].join("\n");
    const result = await storesNothing(() => me.browser.run(() => bulkCreatePromptsAction({ lines })));
    expectFieldError(result, "lines", /line 2.*at least 3 characters/i);
  });

  it("refuses a bulk paste of 501 prompts", async () => {
    const lines = Array.from({ length: 501 }, (_, i) => `Generated question number ${i + 1}?`).join("\n");
    const result = await storesNothing(() => me.browser.run(() => bulkCreatePromptsAction({ lines })));
    expectFieldError(result, "lines", /at most 500/i);
  });

  it("accepts a bulk paste of exactly 500 prompts", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `Accepted question number ${i + 1}?`).join("\n");
    expect(ok(await me.browser.run(() => bulkCreatePromptsAction({ lines })))).toEqual({ created: 500, skipped: 0 });
    const ids = (await db().prompt.findMany({ where: { workspaceId: me.workspaceId, text: { startsWith: "Accepted question" } } })).map((p) => p.id);
    expect(ids).toHaveLength(500);
    await db().prompt.deleteMany({ where: { id: { in: ids } } });
  });
});

describe("ids", () => {
  const notUuid = "1 OR 1=1";
  it.each<[string, AnyAction, string]>([
    ["updateBrand", () => updateBrandAction({ brandId: notUuid, brand: validBrand }), "brandId"],
    ["deleteBrand", () => deleteBrandAction({ brandId: "../brands/all" }), "brandId"],
    ["updatePrompt", () => updatePromptAction({ promptId: notUuid, prompt: { text: "A fine question?" } }), "promptId"],
    ["deletePrompts", () => deletePromptsAction({ promptIds: [notUuid] }), "promptIds"],
    ["changeMemberRole", () => changeMemberRoleAction({ membershipId: notUuid, role: "viewer" }), "membershipId"],
    ["removeMember", () => removeMemberAction({ membershipId: notUuid }), "membershipId"],
    ["revokeInvitation", () => revokeInvitationAction({ invitationId: notUuid }), "invitationId"],
    ["switchWorkspace", () => switchWorkspaceAction({ workspaceId: notUuid }), "workspaceId"],
  ])("%s refuses an id that is not a UUID", async (_, action, field) => {
    const result = await storesNothing(() => me.browser.run(action));
    expect(result.validationErrors).toBeDefined();
    expectFieldError(result, field, /uuid|unknown/i);
  });

  it("deleting a mix of own and foreign prompts deletes none of them", async () => {
    const foreignBefore = await snapshotWorkspace(other.workspaceId);
    await storesNothing(async () => {
      const result = await me.browser.run(() => deletePromptsAction({ promptIds: [promptIds[0]!, foreignPromptId, promptIds[1]!] }));
      refused(result, "not_found", "forbidden");
      return result;
    });
    expect(await snapshotWorkspace(other.workspaceId)).toEqual(foreignBefore);
    expect(await db().prompt.count({ where: { id: { in: promptIds }, deletedAt: null } })).toBe(2);
  });

  it("deleting own prompts plus an id that exists nowhere deletes none of them", async () => {
    await storesNothing(async () => {
      const result = await me.browser.run(() => deletePromptsAction({ promptIds: [...promptIds, crypto.randomUUID()] }));
      refused(result, "not_found");
      return result;
    });
  });
});

describe("NUL and other control characters", () => {
  // PostgreSQL cannot store NUL (error 22021, which surfaced as "something went wrong"); the other
  // control characters are never meant. Every text field refuses them with a message on the field.
  let providerId: string;
  beforeAll(async () => {
    providerId = (await db().providerConfig.findFirstOrThrow({ where: { workspaceId: me.workspaceId } })).id;
  });

  it.each<[string, AnyAction, string]>([
    ["a brand name", () => createBrandAction({ ...validBrand, name: "Fresh\u0000Brand" }), "name"],
    ["an alias", () => createBrandAction({ ...validBrand, aliases: ["Fresh", "Fr\u0007esh"] }), "aliases.1"],
    ["a competitor's name", () => updateBrandAction({ brandId, brand: { ...validBrand, competitors: [{ name: "Stale\u001bCo" }] } }), "brand.competitors.0.name"],
    ["a prompt", () => createPromptAction({ text: "Which CRM\u0000 is best?" }), "text"],
    ["an edited prompt", () => updatePromptAction({ promptId: promptIds[0]!, prompt: { text: "Which CRM is best?\u0000" } }), "prompt.text"],
    ["a bulk paste", () => bulkCreatePromptsAction({ lines: "Which CRM is best?\nWhich\u0000 one?" }), "lines"],
    ["a prompt search", () => listPromptsAction({ q: "crm\u0000" }), "q"],
    ["a check's tag", () => startCheckAction({ idempotencyKey: `nul-${crypto.randomUUID()}`, brandId, prompts: { mode: "tag", tag: "smb\u0000" }, providerConfigIds: [providerId], samples: 1 }), "prompts.tag"],
    ["a schedule name", () => createScheduleAction({ name: "Daily\u0000", brandId, prompts: { mode: "all" }, providerConfigIds: [providerId], samples: 1, cadence: "daily", minuteOfDay: 60 }), "name"],
    ["a workspace name", () => createWorkspaceAction({ name: "Team\u0000" }), "name"],
    ["an API key's name", () => createApiKeyAction({ name: "ci\u0000", scope: "read" }), "name"],
  ])("%s is refused with a field error, and nothing is stored", async (_, action, field) => {
    const result = await storesNothing(() => me.browser.run(action));
    expectFieldError(result, field, /control character/i);
  });

  it("an analytics tag is refused by the chart route with a 400 on the field", async () => {
    const chart = "kpis";
    const response = await me.browser.run(() => chartRoute(new Request(`http://localhost:3000/api/analytics/${chart}?tags=smb%00`), { params: Promise.resolve({ chart }) }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; field: string; message: string } };
    expect(error).toMatchObject({ code: "validation_error", field: "tags.0" });
    expect(error.message).toMatch(/control character/i);
  });
});
