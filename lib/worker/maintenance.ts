import "server-only";
import { canonicalizeStoredDomains } from "@/lib/brands/brands";
import { canonicalizeStoredOverrides } from "@/lib/sources/overrides";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { finishStaleChecks } from "@/lib/lifecycle/transition";
import { lastLine } from "@/lib/errors";
import { resetFutureCronMarks } from "@/lib/worker/clock";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";


/**
 * Runs in every worker process: the sweeper (runs whose worker will not finish them, and checks
 * whose last capture's worker did not finish them) every `sweepMs`, the repair pass (states that should be impossible) and this
 * process's stranded jobs, cron marks a fast clock left in the future (lib/worker/clock.ts) and
 * brand domains and source overrides stored in an older form (canonicalizeStoredDomains,
 * canonicalizeStoredOverrides) every `repairMs`, both once at startup. Each step is guarded, so several workers doing it at once is safe.
 */
export function startMaintenance(options: {
  sweepMs: number;
  repairMs: number;
  log: (line: string) => void;
  /** This process's own stranded jobs (lib/worker/stranded-jobs.ts), looked at with the repair pass. */
  handBackStrandedJobs?: () => Promise<string[]>;
  /**
   * This process's heartbeat, renewed before each sweep: back from a break in which no worker
   * reached the database, the beat records the break (worker_contact), so the sweep that follows
   * gives the others a lease to renew theirs instead of taking their runs over (leaseOver).
   */
  renewLease?: () => Promise<void>;
}): () => Promise<void> {
  const { log } = options;
  let sweeping: Promise<void> | null = null;
  let repairing: Promise<void> | null = null;
  const refusedBrands = new Set<string>();
  const sweep = () => {
    sweeping ??= Promise.resolve(options.renewLease?.())
      .then(() => sweepDeadWorkers())
      .then(async (result) => {
        if (result.expired || result.workers.length || result.setupEnded) {
          log(`swept: ${result.workers.length} dead worker(s) unlocked; ${result.recovered} capture(s) running again, ${result.failed} ended; ${result.setupEnded} setup call(s) ended`);
        }
        // Checks whose last capture's worker stopped between recording it and finishing the check.
        const finished = await finishStaleChecks();
        if (finished) log(`finished ${finished} check(s) whose last capture had ended`);
      })
      .catch((error: unknown) => log(`sweep failed: ${lastLine(error)}`))
      .finally(() => (sweeping = null));
    return sweeping;
  };
  const repair = () => {
    // Two steps, each failing on its own: a repair pass that keeps failing must not stop the watch.
    repairing ??= runRepairPass({ log })
      .catch((error: unknown) => log(`repair pass failed: ${lastLine(error)}`))
      .then(async () => {
        const moved = await resetFutureCronMarks();
        if (moved.length) log(`cron marks in the future (a worker's clock ran ahead) set back to now: ${moved.join(", ")}`);
      })
      .catch((error: unknown) => log(`cron mark check failed: ${lastLine(error)}`))
      .then(async () => {
        const { rewritten, refused, failed } = await canonicalizeStoredDomains();
        if (rewritten.length) log(`brand domains stored in an older form rewritten, their answers re-analysed: ${rewritten.join(", ")}`);
        for (const { id, error } of failed) log(`brand ${id}: its domains stored in an older form could not be rewritten: ${error}`);
        const unreported = refused.filter((id) => !refusedBrands.has(id));
        unreported.forEach((id) => refusedBrands.add(id));
        if (unreported.length) log(`brand(s) with domains in an older form that the brand form refuses, left as they are (edit them on Brands): ${unreported.join(", ")}`);
        const overrides = await canonicalizeStoredOverrides();
        if (overrides) log(`${overrides} source category override(s) stored in an older form rewritten`);
      })
      .catch((error: unknown) => log(`stored domain check failed: ${lastLine(error)}`))
      .then(async () => {
        const stranded = (await options.handBackStrandedJobs?.()) ?? [];
        if (stranded.length) log(`handed back ${stranded.length} job(s) this worker held locked but no longer ran: ${stranded.join(", ")}`);
      })
      .catch((error: unknown) => log(`stranded job watch failed: ${lastLine(error)}`))
      .finally(() => (repairing = null));
    return repairing;
  };
  void sweep().then(repair);
  const sweepTimer = setInterval(() => void sweep(), options.sweepMs);
  const repairTimer = setInterval(() => void repair(), options.repairMs);
  return async () => {
    clearInterval(sweepTimer);
    clearInterval(repairTimer);
    await Promise.all([sweeping, repairing]);
  };
}
