import "server-only";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// Named points (capture lifecycle, access changes, alerts, setup wizard) where a test holds one
// side of a race at the worst moment while the other side acts (the way concurrency is proven
// here, not hoped for). In production they cost a map lookup and a string comparison.
//
// - In the test's own process: `onPausePoint(point, hook)`; the hook runs inside the
//   transition's transaction (it may wait for a signal, read pg_backend_pid(), or throw).
// - In worker processes: list the point in BEACON_TEST_PAUSE_POINTS; the worker then takes a
//   shared advisory lock named after the point, which blocks while the test holds the exclusive
//   one (tests/support/pause.ts).

export type PausePoint =
  /** A capture's run: the capture and its connection's settings read, nothing claimed yet (lib/lifecycle/run/run-capture.ts). */
  | "run:loaded"
  /** Claim: capture locked, slot and budget taken, attempt row written; not committed. */
  | "claim:before-commit"
  /** An operator's change of who may call a connection (revoke, disable, allowlist): written, not committed. */
  | "access:before-commit"
  /** Claim: no free slot; the capture is postponed to wait for one, not committed. */
  | "claim:no-slot-before-commit"
  /** Claim: the budget could not cover the call; the claim is undone, the capture not postponed yet. */
  | "claim:no-budget"
  /** Claim: the budget could not cover the call; the capture is postponed to wait for budget, not committed. */
  | "claim:no-budget-before-commit"
  /** Provider answered or failed; the result is about to be written. */
  | "call:after-provider"
  /** Succeed / fail: everything written, not committed. */
  | "succeed:before-commit"
  | "fail:before-commit"
  /** Succeed: committed; its reply is about to reach the worker (a hook that throws is a reply lost). */
  | "succeed:after-commit"
  /** Repair pass: waiting captures with a cancel nothing else will carry out found, none moved yet (lib/lifecycle/repair.ts). */
  | "repair:cancel-found"
  /** Repair pass: the open attempts of captures that moved on closed (their cost rollup rows locked), not committed. */
  | "repair:attempts-closed-before-commit"
  /** Sweeper: workers whose lease ran out marked expired, not committed; their attempts not read yet. */
  | "sweep:after-workers"
  /** Sweeper: dead workers' attempts found, no attempt changed yet. */
  | "sweep:after-read"
  /** Cancel: captures locked, nothing changed yet. */
  | "cancel:after-lock"
  /** A check's retry or cancel asked from its page: no pending operation of the kind found, none recorded yet (lib/checks/operations.ts). */
  | "operation:none-pending"
  /** A check operation's job: the operation marked running, its work not begun (lib/checks/operations.ts). */
  | "operation:started"
  /** Admin retry: the captures to run again and the refused ones read, nothing moved yet. */
  | "retry:after-plan"
  /** A transition that ended a capture committed; its check is about to be looked at. */
  | "finish:before"
  /** Breaker: a call counted and its window over the threshold; the breaker's row not locked yet to open it (lib/breaker/breaker.ts). */
  | "breaker:over-threshold"
  /** Alerts: a rule judged, its finding about to be stored (the rule may have changed since it was read). */
  | "alert:before-fire"
  /** The weekly digest: a workspace's brands listed, their numbers not read yet (lib/alerts/digest.ts). */
  | "digest:brands-read"
  /** Alerts: a rule's brand, providers and channels checked, the rule not written yet (lib/alerts/rules.ts createRule). */
  | "alert:references-validated"
  /** Alerts: a rule's edit or its switch on or off written, not committed (lib/alerts/rules.ts). */
  | "alert:rule-change-before-commit"
  /** Alerts: a firing row inserted, its rule's channels read, their deliveries not written yet (lib/alerts/deliveries.ts). */
  | "alert:channels-read"
  /** Alerts: a firing row inserted, its deliveries enqueued, not committed. */
  | "alert:firing-before-commit"
  /** Setup wizard: its run's claim committed, its reply not yet handed on (a test throws here for a reply lost after the commit; lib/setup/run.ts). */
  | "setup:claim-committed"
  /** Setup wizard: its run claimed (committed, the connection read under the access lock), the provider not called yet (lib/setup/suggestions.ts). */
  | "setup:claimed"
  /** Setup wizard: the provider answered or failed; the suggestion's outcome and money are about to be written. */
  | "setup:after-provider"
  /** Retention: a batch of old attempts deleted, not committed (lib/jobs/retention.ts). */
  | "retention:batch-before-commit"
  /** The demo seed's history: the brand read and its answers analysed, nothing inserted yet (lib/seed/demo-history.ts). */
  | "demo:before-insert"
  /** An invitation: its sender's role read again (held), the invitation not inserted yet (lib/workspaces/members.ts). */
  | "invitation:before-insert"
  /** Check creation: its brand, prompts and providers read (and held), nothing written yet. */
  | "check:create-after-read"
  /** Check creation: the check, its captures and its budget hold written, not committed. */
  | "check:create-before-commit"
  /** Brand delete: its checks counted (none), the brand about to be deleted. */
  | "brand:delete-before-commit"
  /** A brand edit's re-analysis: a run that has not started found, to be reused (lib/brands/reanalysis.ts). */
  | "reanalysis:waiting-run-found"
  /** A re-analysis batch: its rows rewritten and its progress saved, not committed (a test throws here for a batch that fails). */
  | "reanalysis:batch-before-commit"
  /** Brands with domains in an older form read, none locked yet (canonicalizeStoredDomains, lib/brands/brands.ts). */
  | "domains:candidates-read"
  /** The legacy source override rewrite: a workspace's lock taken and the rows of one domain read, nothing rewritten yet (lib/sources/overrides.ts). */
  | "overrides:legacy-read"
  /** A rewrite of answers' analysis (re-analysis, a brand's domains): their rollup contribution taken away in its stage (no rollup row written), the raw rows not rewritten yet (lib/analytics/rollups.ts). */
  | "rollups:old-staged"
  /** The same rewrite: raw rows rewritten, the new contribution staged, the rollups not written yet. */
  | "rollups:new-staged"
  /** A due schedule's run: its row claimed (locked), its check not yet asked for (lib/schedules/run-due.ts). */
  | "schedule:claimed"
  /** Traffic import: a chunk's raw hits written, not yet added to the rollups, not committed (lib/traffic/hit-writer.ts). */
  | "traffic:import-before-rollups"
  /** The check page's poll: the check's latest operation read, the check not yet (lib/checks/progress.ts). */
  | "progress:between-header-reads"
  /** A site readiness run: a domain checked, its result not yet stored (lib/traffic/readiness-check.ts). */
  | "readiness:before-store"
  /** The site readiness read: whether its job waits or runs read, the domains' rows not yet (lib/traffic/readiness.ts). */
  | "readiness:between-reads"
  /** The alert delivery log's read: the page's rows read, whether any delivery is still to end not yet (lib/alerts/deliveries.ts). */
  | "deliveries:between-reads"
  /** The Jobs page's list: whether the workspace has work to end read, the page's rows not yet (lib/admin/jobs-page.ts). */
  | "jobs:between-reads";

export type PauseContext = { tx?: Prisma.TransactionClient; workspaceId?: string; captureId?: string; checkId?: string; ruleId?: string; suggestionId?: string; operationId?: string };
type Hook = (context: PauseContext) => Promise<void> | void;

const registry = globalThis as unknown as { beaconPauseHooks?: Map<PausePoint, Hook> };
const hooks = (registry.beaconPauseHooks ??= new Map());

/** Test-only: runs `hook` whenever the lifecycle reaches `point`, until the returned function is called. */
export function onPausePoint(point: PausePoint, hook: Hook): () => void {
  hooks.set(point, hook);
  return () => {
    if (hooks.get(point) === hook) hooks.delete(point);
  };
}

let crossProcess: Set<string> | undefined;

/** The advisory lock key of a pause point, shared with tests/support/pause.ts. */
export const pauseLockKey = (point: PausePoint) => `beacon-pause:${point}`;

const crossProcessPoints = () => (crossProcess ??= new Set((env().BEACON_TEST_PAUSE_POINTS ?? "").split(",").filter(Boolean)));

/**
 * Whether a test holds this point (in this process or through BEACON_TEST_PAUSE_POINTS). A
 * transition that is one statement commits on its own and has no moment before its commit; it
 * runs in a transaction instead while a test holds its "before-commit" point (the same statement,
 * so the same effects, only with a moment to hold).
 */
export function isPauseArmed(point: PausePoint): boolean {
  return hooks.has(point) || crossProcessPoints().has(point);
}

export async function pausePoint(point: PausePoint, context: PauseContext = {}): Promise<void> {
  await hooks.get(point)?.(context);
  if (!crossProcessPoints().has(point)) return;
  // Held until the end of the transaction when there is one, so the test can tell "passed the
  // point" from "committed" by taking the exclusive lock again.
  if (context.tx) await context.tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${pauseLockKey(point)}, 0))`;
  else {
    await db().$executeRaw`SELECT pg_advisory_lock_shared(hashtextextended(${pauseLockKey(point)}, 0))`;
    await db().$executeRaw`SELECT pg_advisory_unlock_shared(hashtextextended(${pauseLockKey(point)}, 0))`;
  }
}
