import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { isRuleKind, kindOf, type RuleKind } from "@/lib/alerts/kinds";
import type { RuleOutcome } from "@/lib/alerts/kinds/kind";
import type { ParsedRuleInput, RuleParams } from "@/lib/alerts/schemas";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError, UserError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUniqueViolation } from "@/lib/db/sqlstate";

const notFound = () => new NotFoundError("That alert rule does not exist in this workspace.");

/** Everything a rule names (brand, competitors, providers, channels) must belong to the workspace. */
async function validateReferences(workspaceId: string, input: ParsedRuleInput) {
  if (input.brandId) {
    const brand = await db().brand.findFirst({ where: { id: input.brandId, workspaceId }, select: { id: true } });
    if (!brand) throw new NotFoundError("That brand does not exist in this workspace.", { field: "brandId" });
  }
  if ("competitorIds" in input.params && input.params.competitorIds.length) {
    const ids = [...new Set(input.params.competitorIds)];
    // Competitors are a brand's: without a brand, none of them is the rule's.
    const found = input.brandId ? await db().competitor.count({ where: { workspaceId, brandId: input.brandId, id: { in: ids } } }) : 0;
    if (found !== ids.length) throw new NotFoundError("Some of the chosen competitors are not competitors of that brand.", { field: "params.competitorIds" });
  }
  if ("providerConfigIds" in input.params && input.params.providerConfigIds.length) {
    const ids = [...new Set(input.params.providerConfigIds)];
    const found = await db().providerConfig.count({ where: { workspaceId, id: { in: ids } } });
    if (found !== ids.length) throw new NotFoundError("Some of the chosen providers do not exist in this workspace.", { field: "params.providerConfigIds" });
  }
  const channelIds = [...new Set(input.channelIds)];
  if (channelIds.length) {
    const found = await db().alertChannel.count({ where: { workspaceId, id: { in: channelIds } } });
    if (found !== channelIds.length) throw new NotFoundError("Some of the chosen channels do not exist in this workspace.", { field: "channelIds" });
  }
  if (kindOf(input.kind).needsBudget) {
    const workspace = await db().workspace.findUnique({ where: { id: workspaceId }, select: { monthlyBudgetMicros: true } });
    if (workspace?.monthlyBudgetMicros == null) throw new UserError("This workspace has no monthly budget; set one in Settings first.", { field: "kind" });
  }
  return channelIds;
}

const ruleSelect = {
  id: true,
  name: true,
  kind: true,
  brandId: true,
  params: true,
  enabled: true,
  editVersion: true,
  lastEvaluatedAt: true,
  lastResult: true,
  createdAt: true,
  brand: { select: { name: true } },
  channels: { select: { channel: { select: { id: true, name: true, kind: true } } } },
  firings: { select: { id: true, title: true, firedAt: true }, orderBy: { firedAt: "desc" as const }, take: 1 },
  _count: { select: { firings: true } },
} as const;

/** A stored rule's params, read through its kind's schema (defaults filled in for older rows). */
export function parseParams<K extends RuleKind>(kind: K, params: unknown): RuleParams[K] {
  return kindOf(kind).params.parse(params) as RuleParams[K];
}

/** A stored kind (text, so a new kind needs no migration) as this code knows it. */
export function storedKind(kind: string): RuleKind {
  if (!isRuleKind(kind)) throw new Error(`Unknown alert rule kind "${kind}"`);
  return kind;
}

export async function listRules(workspaceId: string) {
  const rules = await db().alertRule.findMany({ where: { workspaceId }, select: ruleSelect, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rules.map((r) => {
    const kind = storedKind(r.kind);
    return {
      id: r.id,
      name: r.name,
      kind,
      brandId: r.brandId,
      brandName: r.brand?.name ?? null,
      params: parseParams(kind, r.params),
      enabled: r.enabled,
      /** The edit form's version (lib/validation/edit-version.ts). */
      editVersion: r.editVersion,
      channels: r.channels.map((c) => c.channel),
      lastEvaluatedAt: r.lastEvaluatedAt,
      lastResult: r.lastResult as RuleOutcome | null,
      lastFiring: r.firings[0] ?? null,
      firings: r._count.firings,
    };
  });
}

export type AlertRuleRow = Awaited<ReturnType<typeof listRules>>[number];

/**
 * Creates a rule; with the form's `createKey`, once: a resubmit after a lost response (or a
 * double click) finds the one the first made, so no second rule delivers every alert again.
 */
export async function createRule(workspaceId: string, createdById: string | null, input: ParsedRuleInput) {
  const channelIds = await validateReferences(workspaceId, input);
  await pausePoint("alert:references-validated", { workspaceId });
  const made = (error: unknown) =>
    input.createKey && isUniqueViolation(error) ? db().alertRule.findUnique({ where: { workspaceId_createKey: { workspaceId, createKey: input.createKey } }, select: { id: true } }) : null;
  return db().alertRule.create({
    data: {
      workspaceId,
      createdById,
      createKey: input.createKey ?? null,
      name: input.name,
      kind: input.kind,
      brandId: input.brandId,
      params: input.params,
      enabled: input.enabled,
      channels: { create: channelIds.map((channelId) => ({ channelId })) },
    },
    select: { id: true },
  }).catch(async (error: unknown) => {
    const rule = await made(error);
    if (rule) return rule;
    throw error;
  });
}

/** `version`: its editVersion as the form read it: a save after another admin's change (or its switch) is refused (refuseStaleEdit). */
export async function updateRule(workspaceId: string, ruleId: string, input: ParsedRuleInput, version?: number) {
  const channelIds = await validateReferences(workspaceId, input);
  await transaction(async (tx) => {
    // Whether it will watch something else (compared as PostgreSQL compares jsonb, whatever the keys' order).
    const [rule] = await tx.$queryRaw<{ watchesElse: boolean; name: string; editVersion: number }[]>`
      SELECT kind <> ${input.kind} OR "brandId" IS DISTINCT FROM ${input.brandId}::uuid OR params <> ${JSON.stringify(input.params)}::jsonb AS "watchesElse", name, "editVersion"
      FROM alert_rules WHERE id = ${ruleId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
    if (!rule) throw notFound();
    refuseStaleEdit(rule.name, rule.editVersion, version);
    await tx.alertRule.update({
      where: { id: ruleId },
      // A rule that now watches something else starts over: what it last found no longer applies.
      data: { name: input.name, kind: input.kind, brandId: input.brandId, params: input.params, enabled: input.enabled, lastResult: Prisma.DbNull, editVersion: { increment: 1 } },
    });
    // Nor what it fired on: the firings stay in its history, their evidence keys retired, since
    // most keys do not name the brand (a period's metric, a page) and would keep the rule from
    // firing on the new brand's same evidence.
    if (rule.watchesElse) await tx.$executeRaw`UPDATE alert_firings SET "dedupeKey" = "dedupeKey" || ' (retired ' || id || ')' WHERE "ruleId" = ${ruleId}::uuid AND "dedupeKey" NOT LIKE '% (retired %)'`;
    await tx.alertRuleChannel.deleteMany({ where: { ruleId } });
    if (channelIds.length) await tx.alertRuleChannel.createMany({ data: channelIds.map((channelId) => ({ ruleId, channelId })) });
    await pausePoint("alert:rule-change-before-commit", { tx, ruleId });
  });
}

/**
 * Competitors being removed from their brand (in the caller's transaction): the rules that watch
 * them by id stop naming them; one left with none is switched off, saying why, since an empty
 * list means "every competitor". Before, such a rule compared nothing and said all was well
 * ("still comes first … every prompt"), and its form, which draws the brand's competitors only,
 * could not untick the removed one, so Save was refused with nothing to change.
 */
export async function forgetCompetitors(tx: Prisma.TransactionClient, brandId: string, competitorIds: string[]): Promise<void> {
  if (!competitorIds.length) return;
  const off: RuleOutcome = {
    at: new Date().toISOString(),
    status: "error",
    fired: 0,
    message: "Switched off: the competitors it watched were removed from the brand. Edit it to pick others, then switch it on.",
    code: "competitors_removed",
  };
  await tx.$executeRaw`
    UPDATE alert_rules r SET params = jsonb_set(r.params, '{competitorIds}', kept.ids),
      enabled = r.enabled AND jsonb_array_length(kept.ids) > 0,
      "lastResult" = CASE WHEN jsonb_array_length(kept.ids) = 0 THEN ${JSON.stringify(off)}::jsonb ELSE r."lastResult" END,
      "editVersion" = r."editVersion" + 1, "updatedAt" = now()
    FROM (SELECT x.id, beacon_jsonb_without(x.params->'competitorIds', ${competitorIds}::text[]) AS ids
          FROM alert_rules x WHERE x."brandId" = ${brandId}::uuid AND x.params->'competitorIds' ?| ${competitorIds}::text[] ORDER BY x.id FOR UPDATE OF x) kept
    WHERE r.id = kept.id`;
}

/**
 * Switches a rule on or off. A rule switched off because the competitors it watched were removed
 * is switched on only after an edit: its list is empty, which would mean "every competitor".
 */
export async function setRuleEnabled(workspaceId: string, ruleId: string, enabled: boolean) {
  await transaction(async (tx) => {
    const [rule] = await tx.$queryRaw<{ code: string | null }[]>`
      SELECT "lastResult"->>'code' AS code FROM alert_rules WHERE id = ${ruleId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
    if (!rule) throw notFound();
    if (enabled && rule.code === "competitors_removed") {
      throw new UserError("The competitors this rule watched were removed from the brand, and as it is it would watch every competitor. Edit it to pick the competitors it watches, then switch it on.");
    }
    await tx.alertRule.update({ where: { id: ruleId }, data: { enabled, editVersion: { increment: 1 } } });
    await pausePoint("alert:rule-change-before-commit", { tx, ruleId });
  });
}

/** Deletes the rule with its firings and their deliveries (the delivery log keeps tests and digests). */
export async function deleteRule(workspaceId: string, ruleId: string) {
  const deleted = await db().alertRule.deleteMany({ where: { id: ruleId, workspaceId } });
  if (!deleted.count) throw notFound();
}

export const FIRINGS_PAGE_SIZE = 20;

/** The workspace's firings, newest first, with the numbers behind each; one rule's when given. */
export async function listFirings(workspaceId: string, options: { ruleId?: string; page?: number } = {}) {
  const page = options.page ?? 1;
  const where = { workspaceId, ...(options.ruleId ? { ruleId: options.ruleId } : {}) };
  const [total, rows] = await Promise.all([
    db().alertFiring.count({ where }),
    db().alertFiring.findMany({
      where,
      orderBy: [{ firedAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * FIRINGS_PAGE_SIZE,
      take: FIRINGS_PAGE_SIZE,
      select: {
        id: true,
        title: true,
        summary: true,
        facts: true,
        firedAt: true,
        rule: { select: { id: true, name: true, kind: true, brandId: true } },
        deliveries: { select: { status: true } },
      },
    }),
  ]);
  return {
    total,
    page,
    pageSize: FIRINGS_PAGE_SIZE,
    items: rows.map((f) => ({
      id: f.id,
      title: f.title,
      summary: f.summary,
      facts: f.facts as Record<string, unknown>,
      firedAt: f.firedAt,
      rule: f.rule,
      deliveries: {
        total: f.deliveries.length,
        delivered: f.deliveries.filter((d) => d.status === "delivered").length,
        failed: f.deliveries.filter((d) => d.status === "failed").length,
      },
    })),
  };
}

export type FiringsPage = Awaited<ReturnType<typeof listFirings>>;

/** What the rule form offers: brands with competitors, providers, prompt tags and channels. */
export async function ruleChoices(workspaceId: string) {
  const [brands, providers, channels, workspace] = await Promise.all([
    db().brand.findMany({ where: { workspaceId }, select: { id: true, name: true, competitors: { select: { id: true, name: true }, orderBy: { name: "asc" } } }, orderBy: { name: "asc" } }),
    db().providerConfig.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db().alertChannel.findMany({ where: { workspaceId }, select: { id: true, name: true, kind: true }, orderBy: { name: "asc" } }),
    db().workspace.findUnique({ where: { id: workspaceId }, select: { monthlyBudgetMicros: true } }),
  ]);
  return { brands, providers, channels, hasBudget: workspace?.monthlyBudgetMicros != null };
}

export type RuleChoices = Awaited<ReturnType<typeof ruleChoices>> & { tags: string[] };
