// The run tokens this worker process is running now. A token is added BEFORE its claim starts
// and removed only when the run is over (its result written, or given up), so a heartbeat that
// snapshots this set after reading the database clock lists every attempt started before that
// time that the process still runs (lib/jobs/heartbeats.ts). An open attempt missing from it
// was abandoned, and the sweeper takes it over although the process is alive.
const registry = globalThis as unknown as { beaconActiveRuns?: Set<string> };
export const activeRuns = (registry.beaconActiveRuns ??= new Set<string>());
