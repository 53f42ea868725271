import "server-only";
import { databaseNow } from "@/lib/db/clock";
import { enqueueFiringDeliveries } from "@/lib/alerts/deliveries";
import { isBrandKind, kindOf, type RuleKind } from "@/lib/alerts/kinds";
import type { Finding, JudgedRule, RuleOutcome } from "@/lib/alerts/kinds/kind";
import { alertReads } from "@/lib/alerts/reads";
import { storedKind } from "@/lib/alerts/rules";
import { brandsMidReanalysis } from "@/lib/jobs/analysis-runs";
import { pausePoint } from "@/lib/db/pause-points";
import { db, withPrimaryReads } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";

// Evaluates a workspace's alert rules: judges each with its kind's module (lib/alerts/kinds/), and
// stores each firing with the numbers behind it, once per rule and piece of evidence (a unique
// dedupe key), its deliveries enqueued in the same transaction. Run after each check, daily and,
// for breakers and the budget, every minute (worker/tasks/evaluate_alerts.ts and the crons).

/**
 * What a rule watches, as an evaluation read it: a firing or a result is kept only while the rule
 * still watches that. `brandVersion`: a brand rule's brand's analysis version when the evaluation
 * found it not being re-analysed (an edit since raises it).
 */
type Watched = { kind: string; brandId: string | null; params: Prisma.JsonValue; brandVersion?: number };

const waitingMessage = (brandName: string | null, state: "running" | "failed") =>
  state === "running"
    ? `Not judged yet: ${brandName}'s answers are being re-analysed after its last edit; judged again when that is done.`
    : `Not judged: the re-analysis of ${brandName}'s answers after its last edit failed, so they are part analysed the old way, part the new. Try it again on the Brands page; judged again when it is done.`;

/**
 * Stores a finding as a firing unless this rule already fired on the same evidence (the unique
 * dedupe key: two evaluations at once fire once, the second waits on the first's insert), or the
 * rule was disabled, deleted or pointed at something else (updateRule) since it was read, and
 * enqueues its deliveries in the same transaction. True when it fired now.
 *
 * The rule is share-locked first, as it still watches what was judged: an edit, a disable or a
 * delete that is still committing holds the row, so this waits for it and then finds the rule
 * changed. Read without the lock, a firing whose snapshot came before such a commit was stored
 * after it, its dedupe key missed by the edit's retirement, and its message sent with the
 * edited rule's brand to the edited rule's channels.
 *
 * A brand rule's brand must still have the analysis version the evaluation read: an edit
 * committed since has queued a re-analysis, so the history the judge read may be part old
 * analysis, part new ("brand-edited": the rule waits, as it would have). Read without a lock: the
 * judge's reads are done, and an edit not committed yet means they read old analysis only; a
 * share lock here, after the rule's, would also deadlock with an edit that locks the brand and then
 * the rules watching a competitor it removes (forgetCompetitors). Once one finding passed this
 * check, the judge's reads (all made before it) saw old analysis only, so the verdict's other
 * findings go without it ("not-watching" and "brand-edited" are the results that did not pass).
 */
async function fire(rule: JudgedRule, watched: Watched, finding: Finding): Promise<"fired" | "duplicate" | "not-watching" | "brand-edited"> {
  await pausePoint("alert:before-fire", { ruleId: rule.id });
  return transaction(async (tx) => {
    const [watching] = await tx.$queryRaw<{ id: string }[]>`
      SELECT r.id FROM alert_rules r
      WHERE r.id = ${rule.id}::uuid AND r.enabled
        AND r.kind = ${watched.kind} AND r."brandId" IS NOT DISTINCT FROM ${watched.brandId}::uuid AND r.params = ${JSON.stringify(watched.params)}::jsonb
      FOR SHARE`;
    if (!watching) return "not-watching";
    if (watched.brandVersion !== undefined) {
      const [brand] = await tx.$queryRaw<{ version: number }[]>`SELECT "analysisVersion" AS version FROM brands WHERE id = ${watched.brandId}::uuid`;
      if (brand?.version !== watched.brandVersion) return "brand-edited";
    }
    const [row] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO alert_firings ("workspaceId", "ruleId", "dedupeKey", title, summary, facts)
      SELECT ${rule.workspaceId}::uuid, r.id, ${finding.dedupeKey}, ${finding.title}, ${finding.summary}, ${JSON.stringify(finding.facts)}::jsonb
      FROM alert_rules r WHERE r.id = ${rule.id}::uuid
      ON CONFLICT ("ruleId", "dedupeKey") DO NOTHING
      RETURNING id`;
    if (!row) return "duplicate";
    await enqueueFiringDeliveries(tx, row.id);
    await pausePoint("alert:firing-before-commit", { tx, ruleId: rule.id });
    return "fired";
  });
}

export type EvaluationResult = { ruleId: string; outcome: RuleOutcome };

/** Judges one rule with its kind and stores what it found; a judge that throws is the rule's error, not the evaluation's. */
async function judgeAndFire(rule: JudgedRule, watched: Watched, now: Date): Promise<RuleOutcome> {
  try {
    const verdict = await kindOf(storedKind(watched.kind)).judge(rule, watched.params, now, alertReads);
    let fired = 0;
    let checked = watched;
    for (const finding of verdict.findings) {
      const stored = await fire(rule, checked, finding);
      if (stored === "brand-edited") return { at: now.toISOString(), status: "waiting", fired, message: waitingMessage(rule.brandName, "running") };
      if (stored === "fired") fired++;
      // The brand's version held after the judge's reads: the other findings are judged on the same history.
      if (stored === "fired" || stored === "duplicate") checked = { ...watched, brandVersion: undefined };
    }
    const firedAny = verdict.findings.length > 0;
    return {
      ...verdict.outcome,
      at: now.toISOString(),
      fired,
      status: firedAny ? "fired" : verdict.outcome.status,
      message: firedAny ? verdict.findings.map((f) => f.title).join("; ") : verdict.outcome.message,
    };
  } catch (error) {
    return { at: now.toISOString(), status: "error", fired: 0, message: `Could not evaluate: ${error instanceof Error ? error.message.split("\n").at(-1) : String(error)}` };
  }
}


/**
 * Evaluates the workspace's enabled rules (only those of `kinds` when given) as of `now`, by
 * default the database's clock: the period index is part of a firing's dedupe key, so every
 * worker must count periods by the same clock (a worker whose clock is off would fire the same
 * evidence again under another index, or judge the wrong days). A rule whose evaluation throws
 * is recorded as an error and the others still run.
 */
export async function evaluateAlerts(workspaceId: string, options: { kinds?: readonly RuleKind[]; now?: Date } = {}): Promise<EvaluationResult[]> {
  // On the primary, whatever DATABASE_READ_URL says: an evaluation is asked for by a finished check
  // or a re-analysis, and a lagging replica would judge without its answers.
  return withPrimaryReads(() => evaluate(workspaceId, options));
}

async function evaluate(workspaceId: string, options: { kinds?: readonly RuleKind[]; now?: Date }): Promise<EvaluationResult[]> {
  const now = options.now ?? (await databaseNow());
  const rules = await db().alertRule.findMany({
    where: { workspaceId, enabled: true, ...(options.kinds ? { kind: { in: [...options.kinds] } } : {}) },
    select: { id: true, workspaceId: true, name: true, kind: true, brandId: true, params: true, brand: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  // Brands whose answers are being re-analysed after an edit: their history is part old analysis,
  // part new, so a rule would compare the edit's effect, not a change in the answers (a competitor
  // just added "overtakes" where only the newest answers count it). Judged when the run ends
  // (runReanalysis asks for an evaluation).
  // A run that failed after its last attempt leaves the history mixed too: its rules wait for a
  // retry from the Brands page (or the next edit) rather than fire on the mix.
  // The versions first: an edit committed after them raised the version (fire refuses), one before
  // the runs' read queued its run in the same transaction (seen there).
  const brandVersions = new Map((await db().brand.findMany({ where: { workspaceId }, select: { id: true, analysisVersion: true } })).map((b) => [b.id, b.analysisVersion]));
  const reanalysing = await brandsMidReanalysis(workspaceId);
  const results: EvaluationResult[] = [];
  for (const r of rules) {
    const rule: JudgedRule = { id: r.id, workspaceId: r.workspaceId, name: r.name, brandId: r.brandId, brandName: r.brand?.name ?? null };
    const brandRule = r.brandId !== null && isBrandKind(storedKind(r.kind));
    const watched: Watched = { kind: r.kind, brandId: r.brandId, params: r.params, brandVersion: brandRule ? brandVersions.get(r.brandId!) : undefined };
    const midReanalysis = brandRule ? reanalysing.get(r.brandId!) : undefined;
    const outcome: RuleOutcome = midReanalysis
      ? { at: now.toISOString(), status: "waiting", fired: 0, message: waitingMessage(rule.brandName, midReanalysis) }
      : await judgeAndFire(rule, watched, now);
    // Not over the fresh start of a rule edited meanwhile (updateRule resets lastResult), nor over
    // the result of a later evaluation that finished first (another reason's job, on another worker).
    await db().alertRule.updateMany({
      where: {
        id: rule.id,
        workspaceId,
        kind: watched.kind,
        brandId: watched.brandId,
        params: { equals: watched.params ?? Prisma.JsonNull },
        OR: [{ lastEvaluatedAt: null }, { lastEvaluatedAt: { lte: now } }],
      },
      data: { lastEvaluatedAt: now, lastResult: outcome },
    });
    results.push({ ruleId: rule.id, outcome });
  }
  return results;
}
