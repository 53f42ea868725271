import "server-only";
import { createBrandIn } from "@/lib/brands/brands";
import { createCheckIn, hashRequest } from "@/lib/checks/create-check";
import { db } from "@/lib/db/prisma";
import { NotFoundError, UserError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { findPromptsByText } from "@/lib/prompts/prompts";
import type { ParsedAcceptSetup } from "@/lib/setup/schemas";

/**
 * Accepting a first run's (edited) suggestions: the brand with its competitors, the questions as
 * prompts (a live prompt with the same text is reused) and the first check on the chosen
 * providers, in ONE transaction: all of it exists afterwards or none of it. The suggestion row is
 * locked first and remembers its check, so a second submit (a double click, a retry after a lost
 * response) returns the same check and creates nothing. The caller authorizes.
 */
export async function acceptSetup(workspaceId: string, userId: string | null, input: ParsedAcceptSetup): Promise<{ checkId: string; replayed: boolean }> {
  return db().$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ status: string; checkId: string | null; language: string; country: string | null }[]>`
        SELECT status, "checkId", language, country FROM setup_suggestions
        WHERE id = ${input.suggestionId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
      if (!row) throw new NotFoundError("That suggestion does not exist in this workspace.", { field: "suggestionId" });
      if (row.checkId) return { checkId: row.checkId, replayed: true };
      if (row.status !== "succeeded") throw new UserError("These suggestions are not ready yet.", { field: "suggestionId" });

      const brand = await createBrandIn(tx, workspaceId, input.brand);
      const promptIds = await promptsFor(tx, workspaceId, input.questions, row);
      const check = await createCheckIn(tx, {
        workspaceId,
        idempotencyKey: `setup:${input.suggestionId}`,
        requestHash: hashRequest(input),
        brandId: brand.id,
        prompts: { mode: "picked", promptIds },
        providers: { ids: input.providerConfigIds },
        samples: 1,
        startedById: userId,
      });
      await tx.setupSuggestion.update({ where: { id: input.suggestionId }, data: { checkId: check.checkId, acceptedAt: new Date() } });
      return { checkId: check.checkId, replayed: false };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

type Tx = Prisma.TransactionClient;

/** The questions' prompts: existing live ones by text (ignoring case), the rest created in the suggestion's language and country. */
async function promptsFor(tx: Tx, workspaceId: string, questions: ParsedAcceptSetup["questions"], where: { language: string; country: string | null }) {
  const matches = await findPromptsByText(tx, workspaceId, questions.map((q) => q.text));
  const ids: string[] = [];
  const fresh = new Map<string, ParsedAcceptSetup["questions"][number]>();
  matches.forEach((m, i) => {
    if (m.id) ids.push(m.id);
    else if (!fresh.has(m.key)) fresh.set(m.key, questions[i]!);
  });
  const created = fresh.size
    ? await tx.prompt.createManyAndReturn({
        data: [...fresh.values()].map((q) => ({
          workspaceId,
          text: q.text,
          tags: q.tags,
          language: q.language ?? where.language,
          country: q.country ?? where.country,
          city: q.city ?? null,
        })),
        select: { id: true },
      })
    : [];
  return [...new Set([...ids, ...created.map((p) => p.id)])];
}
