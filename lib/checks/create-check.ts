import "server-only";
import { holdBudget } from "@/lib/billing/budget";
import { costOf, estimateUsage, type PriceTable } from "@/lib/billing/money";
import { MAX_CAPTURES_PER_CHECK, MAX_PROMPTS_PER_CHECK, type PromptSelection } from "@/lib/checks/schemas";
import { db } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError, UserError } from "@/lib/errors";
import { IDEMPOTENCY_TTL_MS, IdempotencyMismatchError } from "@/lib/idempotency";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";
import { promptsForTexts } from "@/lib/prompts/prompts";
import { assertUsable } from "@/lib/connections/connections";
import { assertStillCan } from "@/lib/api-keys/api-keys";
import { assertCan, canEditTrackingSetup, canStartCheck } from "@/lib/permissions/permissions";
import type { SearchMode } from "@/lib/providers/types";

type Tx = Prisma.TransactionClient;

export type CheckRequest = {
  workspaceId: string;
  idempotencyKey: string;
  /** Hash of the request as the client sent it: same key + same hash = the same check. */
  requestHash: string;
  /** Defaults to the workspace's first brand. */
  brandId?: string;
  prompts: PromptSelection | { mode: "api"; promptIds: string[]; texts: string[] };
  providers: { ids: string[] } | { names: string[] };
  samples: number;
  startedById?: string | null;
  apiKeyId?: string | null;
  /** The schedule that started the check, if any. */
  scheduleId?: string | null;
};

/**
 * The member starting the check (and their key) may still do so, read again until the check
 * commits (assertStillCan). A schedule's run has no actor.
 */
async function actorStillActs(tx: Tx, request: CheckRequest) {
  if (!request.startedById) return;
  const actor = await assertStillCan(tx, { workspaceId: request.workspaceId, userId: request.startedById, apiKeyId: request.apiKeyId }, canStartCheck, "You can no longer start checks in this workspace.");
  if (request.prompts.mode === "api" && request.prompts.texts.length) assertCan(canEditTrackingSetup(actor), "You can no longer add prompts in this workspace.");
}

async function resolveBrand(tx: Tx, workspaceId: string, brandId?: string) {
  // Key-share locked until the check commits: deleting a brand (which erases its checks with it)
  // locks the brand before it counts them, so a delete that comes later counts this check and
  // is refused, and one in progress makes this wait and then find no brand (brand-delete.test.ts).
  const [brand] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM brands WHERE "workspaceId" = ${workspaceId}::uuid ${brandId ? Prisma.sql`AND id = ${brandId}::uuid` : Prisma.empty}
    ORDER BY "createdAt" LIMIT 1 FOR KEY SHARE`;
  if (!brand) throw new NotFoundError(brandId ? "That brand does not exist in this workspace." : "Add a brand before running a check.", { field: "brandId" });
  return brand;
}

async function resolvePrompts(tx: Tx, workspaceId: string, selection: CheckRequest["prompts"]) {
  const live = { workspaceId, deletedAt: null };
  const select = { id: true, text: true } as const;
  if (selection.mode === "all") return tx.prompt.findMany({ where: live, select, orderBy: { createdAt: "asc" }, take: MAX_PROMPTS_PER_CHECK + 1 });
  if (selection.mode === "tag") return tx.prompt.findMany({ where: { ...live, tags: { has: selection.tag } }, select, orderBy: { createdAt: "asc" }, take: MAX_PROMPTS_PER_CHECK + 1 });

  const ids = [...new Set(selection.promptIds)];
  const found = await tx.prompt.findMany({ where: { ...live, id: { in: ids } }, select });
  if (found.length !== ids.length) throw new NotFoundError(`${ids.length - found.length} of the chosen prompts do not exist in this workspace.`, { field: "prompts" });
  if (selection.mode === "picked") return found;

  // REST API: ad-hoc question texts become prompts; a live prompt with the same text, ignoring
  // case, is reused. One indexed lookup for all texts, one insert for the new ones.
  const asked = await promptsForTexts(tx, workspaceId, selection.texts.map((text) => ({ text })));
  const merged = new Map([...found, ...asked].map((p) => [p.id, p]));
  return [...merged.values()];
}

/**
 * The prompts' wording, read again under a share lock held until the check commits: each capture
 * asks its prompt's current version (set by the captures_prompt_version trigger), and the budget
 * hold is estimated from the same text, so an edit of a prompt waits for the check instead of
 * slipping in between (prompt-edit.test.ts).
 */
async function wordingHeld(tx: Tx, prompts: { id: string; text: string }[]) {
  if (!prompts.length) return prompts;
  const held = await tx.$queryRaw<{ id: string; text: string }[]>`
    SELECT id, text FROM prompts WHERE id = ANY(${prompts.map((p) => p.id)}::uuid[]) ORDER BY id FOR SHARE`;
  const text = new Map(held.map((p) => [p.id, p.text]));
  return prompts.map((p) => ({ id: p.id, text: text.get(p.id) ?? p.text }));
}

async function resolveProviders(tx: Tx, workspaceId: string, providers: CheckRequest["providers"]) {
  const where = "ids" in providers ? { id: { in: providers.ids } } : { name: { in: providers.names } };
  const wanted = "ids" in providers ? providers.ids : providers.names;
  // Share-locked until the check commits, then read: the connection, model and search mode checked
  // and estimated here are what the captures are inserted with (they join these rows again), so
  // an edit of a provider waits for the check instead of slipping in between (check-create-races.test.ts).
  await tx.$queryRaw`
    SELECT id FROM provider_configs
    WHERE "workspaceId" = ${workspaceId}::uuid AND ${"ids" in providers ? Prisma.sql`id = ANY(${providers.ids}::uuid[])` : Prisma.sql`name = ANY(${providers.names}::text[])`}
    ORDER BY id FOR SHARE`;
  const found = await tx.providerConfig.findMany({ where: { workspaceId, ...where }, include: { connection: true } });
  const key = (p: (typeof found)[number]) => ("ids" in providers ? p.id : p.name);
  const missing = [...new Set(wanted)].filter((w) => !found.some((p) => key(p) === w));
  if (missing.length) throw new NotFoundError(`Unknown provider${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`, { field: "providers" });
  const disabled = found.filter((p) => !p.enabled);
  if (disabled.length) throw new UserError(`Provider ${disabled.map((p) => p.name).join(", ")} is disabled.`, { field: "providers" });
  // Its connection must still be granted to the workspace and allow the provider's model.
  for (const p of found) await assertUsable(tx, workspaceId, p.connectionId, p.model);
  // Prices are the connection's; the search mode is the provider's.
  return found.map(({ connection, ...p }) => ({ ...connection, ...p }));
}

type Priced = PriceTable & { id: string; searchMode: SearchMode };

/** The expected cost of one capture: what it holds, and what the form and a retry's dialog show. */
export const captureEstimate = (promptText: string, provider: PriceTable & { searchMode: SearchMode }) => costOf(estimateUsage(promptText, provider.searchMode), provider);

/** The expected cost of one capture of each prompt on each provider: what a capture holds. */
function captureEstimates(prompts: { id: string; text: string }[], providers: Priced[]) {
  return prompts.flatMap((prompt) => providers.map((provider) => ({ promptId: prompt.id, providerId: provider.id, micros: captureEstimate(prompt.text, provider) })));
}

/** Estimated cost of running every prompt on every provider `samples` times. */
export function estimateCheckCost(prompts: { id: string; text: string }[], providers: Priced[], samples: number) {
  return captureEstimates(prompts, providers).reduce((sum, e) => sum + e.micros, 0) * samples;
}

/** What the form shows before submitting: how many captures and what they should cost. */
export async function estimateCheck(request: Pick<CheckRequest, "workspaceId" | "brandId" | "prompts" | "providers" | "samples">) {
  const tx = db();
  await resolveBrand(tx, request.workspaceId, request.brandId);
  const prompts = await resolvePrompts(tx, request.workspaceId, request.prompts);
  const providers = await resolveProviders(tx, request.workspaceId, request.providers);
  return {
    prompts: prompts.length,
    captures: prompts.length * providers.length * request.samples,
    estimateMicros: estimateCheckCost(prompts, providers, request.samples),
  };
}

/**
 * One click of "Check", in ONE transaction (DESIGN.md "How work flows"): the idempotency key,
 * the budget reservation, the check, its captures and their graphile-worker jobs. Either all of
 * it exists afterwards or none of it. Returns the existing check for a repeated request.
 */
export async function createCheck(request: CheckRequest): Promise<{ checkId: string; replayed: boolean }> {
  return transaction((tx) => createCheckIn(tx, request), { timeoutMs: 60_000 });
}

/** createCheck inside the caller's transaction (the first-run wizard creates its brand and prompts in the same one). */
export async function createCheckIn(tx: Tx, request: CheckRequest): Promise<{ checkId: string; replayed: boolean }> {
  // Concurrent requests with one key queue up here; the first creates, the rest replay.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`idem:${request.workspaceId}:${request.idempotencyKey}`}, 0))`;
  const [existing] = await tx.$queryRaw<{ id: string; requestHash: string | null; live: boolean }[]>`
    SELECT id, "requestHash", coalesce("idempotencyExpiresAt" > now() AT TIME ZONE 'UTC', false) AS live FROM checks
    WHERE "workspaceId" = ${request.workspaceId}::uuid AND "idempotencyKey" = ${request.idempotencyKey}`;
  if (existing?.live) {
    if (existing.requestHash !== request.requestHash) {
      throw new IdempotencyMismatchError(
        "This Idempotency-Key was already used for a different request. Use a new key for a new check.",
        { field: "idempotencyKey" },
      );
    }
    return { checkId: existing.id, replayed: true };
  }
  if (existing) await tx.check.update({ where: { id: existing.id }, data: { idempotencyKey: null } }); // expired key

  await actorStillActs(tx, request);
  const brand = await resolveBrand(tx, request.workspaceId, request.brandId);
  const prompts = await wordingHeld(tx, await resolvePrompts(tx, request.workspaceId, request.prompts));
  if (!prompts.length) throw new UserError("No prompts match this selection. Add prompts or pick another tag.", { field: "prompts" });
  if (prompts.length > MAX_PROMPTS_PER_CHECK) throw new UserError(`A check can ask at most ${MAX_PROMPTS_PER_CHECK} prompts (this one has more).`, { field: "prompts" });
  // By name, so a check's grid and job order do not depend on the order they were picked in.
  const providers = (await resolveProviders(tx, request.workspaceId, request.providers)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const totalCaptures = prompts.length * providers.length * request.samples;
  if (totalCaptures > MAX_CAPTURES_PER_CHECK) {
    throw new UserError(`That is ${totalCaptures} captures; a check can have at most ${MAX_CAPTURES_PER_CHECK}. Pick fewer prompts, providers or samples.`);
  }

  await pausePoint("check:create-after-read", { tx });
  // Each capture holds its expected cost in this month's budget (database clock) until it ends.
  const estimates = captureEstimates(prompts, providers);
  const estimate = estimates.reduce((sum, e) => sum + e.micros, 0) * request.samples;
  const period = await holdBudget(tx, request.workspaceId, estimate);

  const check = await tx.check.create({
    data: {
      workspaceId: request.workspaceId,
      brandId: brand.id,
      startedById: request.startedById ?? null,
      apiKeyId: request.apiKeyId ?? null,
      scheduleId: request.scheduleId ?? null,
      idempotencyKey: request.idempotencyKey,
      requestHash: request.requestHash,
      samples: request.samples,
      totalCaptures,
    },
    select: { id: true },
  });

  await tx.$executeRaw`UPDATE checks SET "idempotencyExpiresAt" = now() + make_interval(secs => ${IDEMPOTENCY_TTL_MS / 1000}) WHERE id = ${check.id}::uuid`;
  await tx.$executeRaw`
    INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode",
                          "reservedMicros", "reservedPeriod", "updatedAt")
    SELECT gen_random_uuid(), ${request.workspaceId}::uuid, ${check.id}::uuid, ${brand.id}::uuid, e."promptId", pc.id, pc."connectionId", s, 'queued', conn."maxAttempts",
           pc.model, pc."searchMode", e.micros, ${period}::date, now()
    FROM unnest(${estimates.map((e) => e.promptId)}::uuid[], ${estimates.map((e) => e.providerId)}::uuid[], ${estimates.map((e) => e.micros)}::bigint[])
         WITH ORDINALITY AS e("promptId", "providerId", micros, ord)
    JOIN provider_configs pc ON pc.id = e."providerId" JOIN provider_connections conn ON conn.id = pc."connectionId"
    CROSS JOIN generate_series(1, ${request.samples}::int) AS s
    ORDER BY s, e.ord`;
  await enqueueCaptureJobs(tx, { checkId: check.id });
  await tx.event.create({
    data: {
      workspaceId: request.workspaceId,
      checkId: check.id,
      kind: "check_created",
      actorUserId: request.startedById ?? null,
      actorApiKeyId: request.apiKeyId ?? null,
      data: { captures: totalCaptures, estimateMicros: estimate },
    },
  });
  await pausePoint("check:create-before-commit", { tx, checkId: check.id });
  return { checkId: check.id, replayed: false };
}
