import type { Task } from "graphile-worker";
import { runCapture } from "@/lib/captures/run-capture";
import { workerIdentity } from "@/lib/jobs/identity";
import { capturePayload } from "@/lib/jobs/payloads";

/** One try at one capture: prompt x provider x sample (lib/captures/run-capture.ts). */
export const capture: Task = async (payload, helpers) => {
  const { captureId } = capturePayload.parse(payload);
  await runCapture(captureId, {
    workerId: await workerIdentity(),
    shutdownSignal: helpers.abortSignal,
    log: (line) => helpers.logger.debug(line),
  });
};
