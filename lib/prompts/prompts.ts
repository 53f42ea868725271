import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError, UserError } from "@/lib/errors";
import { MAX_BULK_PROMPTS, splitPromptLines, type ParsedPromptInput } from "@/lib/prompts/schemas";
import { isUniqueViolation } from "@/lib/db/sqlstate";

const live = (workspaceId: string): Prisma.PromptWhereInput => ({ workspaceId, deletedAt: null });

export async function listPrompts(
  workspaceId: string,
  query: { q?: string; tag?: string; page: number; pageSize: number },
) {
  const where: Prisma.PromptWhereInput = {
    ...live(workspaceId),
    ...(query.q ? { text: { contains: query.q, mode: "insensitive" } } : {}),
    ...(query.tag ? { tags: { has: query.tag } } : {}),
  };
  const [items, total, tags] = await Promise.all([
    db().prompt.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: { id: true, text: true, tags: true, country: true, city: true, language: true, createdAt: true, updatedAt: true },
    }),
    db().prompt.count({ where }),
    listPromptTags(workspaceId),
  ]);
  return { items, total, page: query.page, pageSize: query.pageSize, tags };
}

/** Every live prompt, briefly, for pickers (a check takes at most 1,000). */
export async function listPromptChoices(workspaceId: string) {
  return db().prompt.findMany({ where: live(workspaceId), select: { id: true, text: true, tags: true }, orderBy: { createdAt: "asc" }, take: 1000 });
}

export async function listPromptTags(workspaceId: string): Promise<{ tag: string; count: number }[]> {
  const rows = await db().$queryRaw<{ tag: string; count: bigint }[]>`
    SELECT tag, count(*) AS count
    FROM prompts, unnest(tags) AS tag
    WHERE "workspaceId" = ${workspaceId}::uuid AND "deletedAt" IS NULL
    GROUP BY tag ORDER BY tag`;
  return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/**
 * The live prompt with this text, ignoring case. Compared with lower() = lower(): Prisma's
 * case-insensitive `equals` is an ILIKE, where % and _ in a question would act as wildcards.
 */
export async function findPromptByText(client: Pick<Prisma.TransactionClient, "$queryRaw">, workspaceId: string, text: string, exceptId?: string) {
  const rows = await client.$queryRaw<{ id: string; text: string }[]>`
    SELECT id, text FROM prompts
    WHERE "workspaceId" = ${workspaceId}::uuid AND "deletedAt" IS NULL AND lower(text) = lower(${text})
      AND (${exceptId ?? null}::uuid IS NULL OR id <> ${exceptId ?? null}::uuid)
    LIMIT 1`;
  return rows[0] ?? null;
}

export type PromptMatch = { asked: string; key: string; id: string | null; text: string | null };

/**
 * For each of `texts`, in order: its key (PostgreSQL's lower(), so texts that differ only in case
 * share one) and the oldest live prompt with that text ignoring case, if any. One statement,
 * one probe per text into prompts_live_text_idx ("workspaceId", lower(text)) WHERE "deletedAt"
 * IS NULL (migration 20261130133000): a check with 1,000 texts no longer scans the workspace's
 * prompts once per text. Each match is share-locked until the caller commits: a prompt being
 * reworded at that moment is matched only if it still has the text once the edit commits, and
 * one matched is not reworded before the caller's check asks it (check-create-races.test.ts).
 */
export async function findPromptsByText(client: Pick<Prisma.TransactionClient, "$queryRaw">, workspaceId: string, texts: string[]): Promise<PromptMatch[]> {
  return client.$queryRaw<PromptMatch[]>`
    SELECT t.asked, lower(t.asked) AS key, p.id, p.text
    FROM unnest(${texts}::text[]) WITH ORDINALITY AS t(asked, ord)
    LEFT JOIN LATERAL (
      SELECT id, text FROM prompts
      WHERE "workspaceId" = ${workspaceId}::uuid AND "deletedAt" IS NULL AND lower(text) = lower(t.asked)
      ORDER BY "createdAt", id LIMIT 1
      FOR SHARE
    ) p ON true
    ORDER BY t.ord`;
}

/** A prompt to find or create by its text; a new one gets the rest (no tags or market unless given). */
type NewPrompt = Pick<ParsedPromptInput, "text"> & Partial<Pick<ParsedPromptInput, "tags" | "country" | "city" | "language">>;

/**
 * The live prompt of each of `asked`, in order, in the caller's transaction: an existing one
 * (ignoring case) is reused, the others are created once each with their tags, country, city and
 * language. One live prompt per text is the database's rule (prompts_live_text_idx is unique):
 * the insert skips a text another caller has just created (waiting for its commit), and the read
 * after it finds that prompt, so two requests adding the same new question at once make one.
 */
export async function promptsForTexts(tx: Prisma.TransactionClient, workspaceId: string, asked: NewPrompt[]): Promise<{ id: string; text: string }[]> {
  const matches = await findPromptsByText(tx, workspaceId, asked.map((p) => p.text));
  const fresh = new Map<string, NewPrompt>(); // key -> the first spelling
  matches.forEach((m, i) => {
    if (!m.id && !fresh.has(m.key)) fresh.set(m.key, asked[i]!);
  });
  if (!fresh.size) return matches.map((m) => ({ id: m.id!, text: m.text! }));
  await tx.prompt.createMany({
    data: [...fresh.values()].map((p) => ({ workspaceId, text: p.text, tags: p.tags ?? [], country: p.country ?? null, city: p.city ?? null, language: p.language ?? null })),
    skipDuplicates: true,
  });
  const found = await findPromptsByText(tx, workspaceId, asked.map((p) => p.text));
  return found.map((m) => {
    if (!m.id) throw new Error(`The prompt "${m.asked}" was neither found nor created`);
    return { id: m.id, text: m.text! };
  });
}

/** The ids of live prompts with these texts (promptsForTexts): the first-run wizard's questions (lib/setup/accept.ts). */
export async function ensurePromptsIn(tx: Prisma.TransactionClient, workspaceId: string, prompts: ParsedPromptInput[]): Promise<string[]> {
  return [...new Set((await promptsForTexts(tx, workspaceId, prompts)).map((p) => p.id))];
}

const DUPLICATE = "This prompt already exists in the workspace.";

/** A write that met another live prompt with its text (prompts_live_text_idx), e.g. one created at the same moment. */
const isDuplicateText = (error: unknown) => isUniqueViolation(error);

async function assertNoDuplicate(workspaceId: string, text: string, exceptId?: string) {
  if (await findPromptByText(db(), workspaceId, text, exceptId)) throw new UserError(DUPLICATE, { field: "text" });
}

/** Refused as a duplicate when the database's rule refuses it (one written meanwhile). */
function rethrowDuplicate(error: unknown): never {
  if (isDuplicateText(error)) throw new UserError(DUPLICATE, { field: "text" });
  throw error;
}

export async function createPrompt(workspaceId: string, input: ParsedPromptInput) {
  await assertNoDuplicate(workspaceId, input.text);
  return db().prompt.create({ data: { workspaceId, ...input } }).catch(rethrowDuplicate);
}

/**
 * `version`: the prompt's updatedAt as the form read it: a save from before another member's edit
 * is refused (refuseStaleEdit) rather than putting back its text, tags or market (tag schedules
 * pick prompts by their tags).
 */
export async function updatePrompt(workspaceId: string, promptId: string, input: ParsedPromptInput, { version }: { version?: Date } = {}) {
  await assertNoDuplicate(workspaceId, input.text, promptId);
  const { count } = await db()
    .prompt.updateMany({
      // Compare and set: written only if unchanged since the form read it.
      where: { id: promptId, ...live(workspaceId), ...(version ? { updatedAt: version } : {}) },
      data: { text: input.text, tags: input.tags, country: input.country ?? null, city: input.city ?? null, language: input.language ?? null },
    })
    .catch(rethrowDuplicate);
  if (!count) {
    const now = await db().prompt.findFirst({ where: { id: promptId, ...live(workspaceId) }, select: { updatedAt: true } });
    if (!now) throw new NotFoundError("That prompt does not exist in this workspace.");
    refuseStaleEdit("This prompt", now.updatedAt, version);
  }
}

/**
 * One prompt per line. Lines already in the workspace (or repeated in the paste) are skipped;
 * any invalid line refuses the whole paste so nothing is half-imported.
 */
export async function bulkCreatePrompts(workspaceId: string, lines: string, tags: string[]) {
  const { texts, errors } = splitPromptLines(lines);
  if (errors.length) throw new UserError(errors.slice(0, 3).join(" · "), { field: "lines" });
  if (!texts.length) throw new UserError("Paste at least one prompt, one per line.", { field: "lines" });
  if (texts.length > MAX_BULK_PROMPTS) {
    throw new UserError(`Paste at most ${MAX_BULK_PROMPTS} prompts at a time (this paste has ${texts.length}).`, { field: "lines" });
  }
  const existing = await db().prompt.findMany({ where: live(workspaceId), select: { text: true } });
  const seen = new Set(existing.map((p) => p.text.toLowerCase()));
  const fresh = texts.filter((text) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A text another paste or request added meanwhile is skipped too (prompts_live_text_idx).
  const { count } = fresh.length ? await db().prompt.createMany({ data: fresh.map((text) => ({ workspaceId, text, tags })), skipDuplicates: true }) : { count: 0 };
  return { created: count, skipped: texts.length - count };
}

/**
 * Prompts are archived, not erased, so the checks that asked them keep their question. Called
 * through lib/schedules archivePrompts, whose `first` takes them out of the schedules that picked
 * them in the same transaction, before the prompts are locked (this folder may not import that one).
 */
export async function deletePrompts(workspaceId: string, promptIds: string[], first: (tx: Prisma.TransactionClient) => Promise<void>) {
  // In one transaction: when any id is not ours, nothing is archived.
  return transaction(async (tx) => {
    await first(tx);
    const { count } = await tx.prompt.updateMany({
      where: { id: { in: promptIds }, ...live(workspaceId) },
      data: { deletedAt: new Date() },
    });
    if (count !== new Set(promptIds).size) throw new NotFoundError("Some of those prompts do not exist in this workspace.");
    return { deleted: count };
  });
}
