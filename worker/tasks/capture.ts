import { runCapture } from "@/lib/lifecycle/run/run-capture";
import { workerIdentity } from "@/lib/jobs/identity";
import { defineTask } from "@/worker/tasks/define";

/** One try at one capture: prompt x provider x sample (lib/lifecycle/run/run-capture.ts). */
export const capture = defineTask("capture", async ({ captureId }, helpers) => {
  await runCapture(captureId, {
    workerId: await workerIdentity(),
    shutdownSignal: helpers.abortSignal,
    log: (line) => helpers.logger.debug(line),
    warn: (line) => helpers.logger.warn(line),
  });
});
