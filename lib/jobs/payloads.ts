// Payloads of every graphile-worker task, in one catalog: the enqueuing SQL and the task
// handlers agree on them here.
import { z } from "zod";

export const capturePayload = z.object({ captureId: z.uuid() });
export type CapturePayload = z.infer<typeof capturePayload>;

export const reanalyzePayload = z.object({ analysisRunId: z.uuid() });
