import { workerIdentity } from "@/lib/jobs/identity";
import { runSetupSuggestions } from "@/lib/setup/suggestions";
import { defineTask } from "@/worker/tasks/define";

/** A first run's suggestions: one provider call under this worker's lease, charged like a capture's (lib/setup/suggestions.ts). */
export const setup_suggestions = defineTask("setup_suggestions", async ({ suggestionId }, helpers) => {
  await runSetupSuggestions(suggestionId, { workerId: await workerIdentity(), signal: helpers.abortSignal, log: (line) => helpers.logger.info(line) });
});
