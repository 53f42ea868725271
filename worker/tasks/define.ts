import type { JobHelpers, Task } from "graphile-worker";
import { jobCatalog, type JobName, type JobPayload } from "@/lib/jobs/catalog";

/** A task handler for a catalog job: its payload is parsed with the catalog's schema first. */
export function defineTask<N extends JobName>(name: N, handler: (payload: JobPayload<N>, helpers: JobHelpers) => Promise<void>): Task {
  return async (payload, helpers) => handler(jobCatalog[name].payload.parse(payload) as JobPayload<N>, helpers);
}
