// How long a child of the launcher may take to stop before it is killed: by the launcher after
// its SIGTERM (scripts/run.ts), or by the child itself once the launcher is gone
// (lib/process/launcher-watchdog.ts).
import { env } from "@/lib/config/env";

/** The worker's drain: grace period for running jobs, abort, cancelled attempts recorded. */
export const workerStopDeadlineMs = () => Math.max(10_000, (env().BEACON_WORKER_SHUTDOWN_GRACE_SECONDS + 8) * 1000);

/** The web server: finish open requests and close. */
export const WEB_STOP_DEADLINE_MS = 10_000;
