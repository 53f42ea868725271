// Edit forms load a whole row and save every field they show (lib/validation/edit-version.ts):
// a form opened before someone else's change (another admin, another tab) must not undo it. Each
// form sends back the version it read; a save after a change is refused (409, nothing stored) and
// one with the row's version now saves. The brand and the connection forms have their own tests
// (discovery.test.ts, provider-limits.test.ts); here the workspace's budget, a provider, an alert
// channel, a prompt, a schedule, an alert rule (the last two by an edit counter: their own runs
// and evaluations rewrite their updatedAt) and the agency branding.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { updateAlertChannelAction, createAlertChannelAction } from "@/lib/actions/alert-channels";
import { createPromptAction, updatePromptAction } from "@/lib/actions/prompts";
import { updateProviderAction, updateWorkspaceSettingsAction, workspaceSettingsAction } from "@/lib/actions/settings";
import { createScheduleAction, updateScheduleAction } from "@/lib/actions/schedules";
import { createAlertRuleAction, setAlertRuleEnabledAction, updateAlertRuleAction } from "@/lib/actions/alerts";
import { getBrandingAction, setBrandingAction } from "@/lib/actions/share-links";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let owner: Person;

beforeAll(async () => {
  owner = await signUp({ name: "Stale Owner", workspaceName: "Stale forms" });
});

const run = <T,>(action: () => Promise<T>) => owner.browser.run(action);

describe("an edit form opened before another change", () => {
  it("the workspace's settings: a rename cannot put back the budget another admin lowered", async () => {
    const opened = ok(await run(() => workspaceSettingsAction()));
    ok(await run(() => updateWorkspaceSettingsAction({ name: "Stale forms", monthlyBudgetUsd: 5, version: opened.updatedAt })));
    // The form opened before still shows no budget; its rename is refused.
    const stale = refused(await run(() => updateWorkspaceSettingsAction({ name: "Renamed", monthlyBudgetUsd: null, version: opened.updatedAt })), "conflict");
    expect(stale.message).toMatch(/changed since .* opened/);
    expect(await db().workspace.findUniqueOrThrow({ where: { id: owner.workspaceId } })).toMatchObject({ name: "Stale forms", monthlyBudgetMicros: 5_000_000n });
    const now = ok(await run(() => workspaceSettingsAction()));
    ok(await run(() => updateWorkspaceSettingsAction({ name: "Renamed", monthlyBudgetUsd: 5, version: now.updatedAt })));
    expect((await db().workspace.findUniqueOrThrow({ where: { id: owner.workspaceId } })).name).toBe("Renamed");
  });

  it("the agency branding: a stale form cannot put back the name another admin changed, nor one opened before the first save", async () => {
    const none = ok(await run(() => getBrandingAction()));
    expect(none.updatedAt).toBeNull();
    ok(await run(() => setBrandingAction({ agencyName: "Northwind Agency", version: none.updatedAt })));
    // Opened before that first save (it read no branding): refused.
    refused(await run(() => setBrandingAction({ agencyName: "Old Name", version: null })), "conflict");
    const opened = ok(await run(() => getBrandingAction()));
    ok(await run(() => setBrandingAction({ agencyName: "Northwind & Co", version: opened.updatedAt })));
    const stale = refused(await run(() => setBrandingAction({ agencyName: "Northwind Agency", version: opened.updatedAt })), "conflict");
    expect(stale.message).toMatch(/changed since .* opened/);
    expect((await db().workspaceBranding.findUniqueOrThrow({ where: { workspaceId: owner.workspaceId } })).agencyName).toBe("Northwind & Co");
    const now = ok(await run(() => getBrandingAction()));
    ok(await run(() => setBrandingAction({ agencyName: "Northwind", version: now.updatedAt })));
    expect((await db().workspaceBranding.findUniqueOrThrow({ where: { workspaceId: owner.workspaceId } })).agencyName).toBe("Northwind");
  });

  it("a provider: a stale form or a stale Enable button cannot switch back on a provider another admin disabled", async () => {
    const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: owner.workspaceId }, orderBy: { name: "asc" } });
    const config = { name: provider.name, connectionId: provider.connectionId, model: provider.model, searchMode: provider.searchMode };
    ok(await run(() => updateProviderAction({ providerConfigId: provider.id, version: provider.updatedAt, config: { ...config, enabled: false } })));
    // The same row as both were read before the disable: the dialog renames it, the list's toggle flips it.
    refused(await run(() => updateProviderAction({ providerConfigId: provider.id, version: provider.updatedAt, config: { ...config, name: "Renamed", enabled: true } })), "conflict");
    refused(await run(() => updateProviderAction({ providerConfigId: provider.id, version: provider.updatedAt, config: { ...config, enabled: true } })), "conflict");
    expect(await db().providerConfig.findUniqueOrThrow({ where: { id: provider.id } })).toMatchObject({ name: provider.name, enabled: false });
  });

  it("an alert channel: a stale form cannot add back a recipient another admin removed", async () => {
    const { channel } = ok(await run(() => createAlertChannelAction({ kind: "email", name: "Team", to: ["a@example.com", "former@example.com"] })));
    const opened = await db().alertChannel.findUniqueOrThrow({ where: { id: channel.id } });
    ok(await run(() => updateAlertChannelAction({ channelId: channel.id, version: opened.updatedAt, kind: "email", name: "Team", to: ["a@example.com"] })));
    refused(await run(() => updateAlertChannelAction({ channelId: channel.id, version: opened.updatedAt, kind: "email", name: "Team (all)", to: ["a@example.com", "former@example.com"] })), "conflict");
    expect((await db().alertChannel.findUniqueOrThrow({ where: { id: channel.id } })).config).toEqual({ to: ["a@example.com"] });
  });

  it("a prompt: a stale form cannot put back the tag another member removed (tag schedules pick prompts by it)", async () => {
    ok(await run(() => createPromptAction({ text: "Best CRM for a stale form?", tags: ["pricing", "weekly"] })));
    const opened = await db().prompt.findFirstOrThrow({ where: { workspaceId: owner.workspaceId, text: "Best CRM for a stale form?" } });
    ok(await run(() => updatePromptAction({ promptId: opened.id, version: opened.updatedAt, prompt: { text: opened.text, tags: ["pricing"] } })));
    refused(await run(() => updatePromptAction({ promptId: opened.id, version: opened.updatedAt, prompt: { text: "Best CRM for a stale form, reworded?", tags: ["pricing", "weekly"] } })), "conflict");
    expect(await db().prompt.findUniqueOrThrow({ where: { id: opened.id } })).toMatchObject({ text: opened.text, tags: ["pricing"] });
    // Opened again, it saves.
    const now = await db().prompt.findUniqueOrThrow({ where: { id: opened.id } });
    ok(await run(() => updatePromptAction({ promptId: opened.id, version: now.updatedAt, prompt: { text: "Best CRM for a stale form, reworded?", tags: ["pricing"] } })));
  });

  it("a schedule: a stale rename cannot put back the samples another member cut, and its own runs do not make a form stale", async () => {
    const brand = await db().brand.create({ data: { workspaceId: owner.workspaceId, name: "Stale brand" } });
    await db().prompt.create({ data: { workspaceId: owner.workspaceId, text: "Which CRM does a schedule ask?" } });
    const providers = await db().providerConfig.findMany({ where: { workspaceId: owner.workspaceId, enabled: true }, orderBy: { name: "asc" }, take: 2 });
    const input = { name: "Daily", brandId: brand.id, prompts: { mode: "all" as const }, providerConfigIds: providers.map((p) => p.id), samples: 3, cadence: "daily" as const, weekday: null, minuteOfDay: 9 * 60 };
    const { id } = ok(await run(() => createScheduleAction(input)));
    const opened = await db().schedule.findUniqueOrThrow({ where: { id } });
    // A run of the schedule (its worker's cron) rewrites the row: the form is not stale for that.
    await db().schedule.update({ where: { id }, data: { lastRunAt: new Date(), nextRunAt: new Date(Date.now() + 86_400_000) } });
    ok(await run(() => updateScheduleAction({ scheduleId: id, version: opened.editVersion, schedule: { ...input, samples: 1 } })));
    refused(await run(() => updateScheduleAction({ scheduleId: id, version: opened.editVersion, schedule: { ...input, name: "Daily (renamed)" } })), "conflict");
    expect(await db().schedule.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Daily", samples: 1 });
  });

  it("an alert rule: a stale edit cannot switch back on a rule another admin switched off, and an evaluation does not make its form stale", async () => {
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: owner.workspaceId, name: "Stale brand" } });
    const rule = { name: "Visibility", kind: "metric_change" as const, brandId: brand.id, params: { metric: "visibility" as const, windowDays: 7, confidence: 0.95 as const } };
    const { id } = ok(await run(() => createAlertRuleAction(rule)));
    const opened = await db().alertRule.findUniqueOrThrow({ where: { id } });
    ok(await run(() => setAlertRuleEnabledAction({ ruleId: id, enabled: false })));
    refused(await run(() => updateAlertRuleAction({ ruleId: id, version: opened.editVersion, rule: { ...rule, name: "Visibility (renamed)", enabled: true } })), "conflict");
    expect(await db().alertRule.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Visibility", enabled: false });
    // Evaluations rewrite the rule's result, not what its form shows: a form opened now saves after one.
    const now = await db().alertRule.findUniqueOrThrow({ where: { id } });
    await db().alertRule.update({ where: { id }, data: { lastEvaluatedAt: new Date() } });
    ok(await run(() => updateAlertRuleAction({ ruleId: id, version: now.editVersion, rule: { ...rule, name: "Visibility (renamed)", enabled: false } })));
  });
});
