import "server-only";
import { createBrandIn } from "@/lib/brands/brands";
import { createCheckIn } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError, UserError } from "@/lib/errors";
import { ensurePromptsIn } from "@/lib/prompts/prompts";
import type { ParsedAcceptSetup } from "@/lib/setup/schemas";

/**
 * Accepting a first run's (edited) suggestions: the brand with its competitors, the questions as
 * prompts (a live prompt with the same text is reused) and the first check on the chosen
 * providers, in ONE transaction: all of it exists afterwards or none of it. The suggestion row is
 * locked first and remembers its check, so a second submit (a double click, a retry after a lost
 * response) returns the same check and creates nothing. The caller authorizes.
 */
export async function acceptSetup(workspaceId: string, userId: string | null, input: ParsedAcceptSetup): Promise<{ checkId: string; replayed: boolean }> {
  return transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ status: string; checkId: string | null; language: string; country: string | null }[]>`
        SELECT status, "checkId", language, country FROM setup_suggestions
        WHERE id = ${input.suggestionId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
      if (!row) throw new NotFoundError("That suggestion does not exist in this workspace.", { field: "suggestionId" });
      if (row.checkId) return { checkId: row.checkId, replayed: true };
      if (row.status !== "succeeded") throw new UserError("These suggestions are not ready yet.", { field: "suggestionId" });

      const brand = await createBrandIn(tx, workspaceId, input.brand);
      // The questions in the suggestion's language and country unless they say otherwise.
      const promptIds = await ensurePromptsIn(
        tx,
        workspaceId,
        input.questions.map((q) => ({ ...q, language: q.language ?? row.language, country: q.country ?? row.country ?? undefined })),
      );
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
    { timeoutMs: 60_000 },
  );
}
