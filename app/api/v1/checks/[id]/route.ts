import { apiRoute, json, parseOrThrow, idParam } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/auth/permissions";
import { getCheckProgress } from "@/lib/checks/queries";

export const dynamic = "force-dynamic";

/** A check: status, counts per status, cost, and its captures. */
export const GET = apiRoute<{ id: string }>(async ({ caller }, params) => {
  assertCan(canView(caller));
  const { id } = parseOrThrow(idParam, params);
  const { check, prompts, providers, captures } = await getCheckProgress(caller.workspaceId, id);
  const promptText = new Map(prompts.map((p) => [p.id, p.text]));
  const providerName = new Map(providers.map((p) => [p.id, p.name]));
  return json({
    check,
    captures: captures.map((c) => ({
      id: c.id,
      prompt: { id: c.promptId, text: promptText.get(c.promptId) },
      provider: providerName.get(c.providerConfigId),
      sample: c.sample,
      status: c.status,
      attempts: c.attemptCount,
      latencyMs: c.latencyMs,
      costMicros: c.costMicros,
      lastError: c.lastError,
      nextAttemptAt: c.nextAttemptAt,
    })),
  });
});
