import "server-only";
import { analyzeAnswer, type AnalysisResult } from "@/lib/analysis/analyze";
import { trackedKeys } from "@/lib/analysis/brand-candidates";
import { domainOf, isOwnDomain } from "@/lib/analysis/citations";
import { CANDIDATE_COLUMNS, candidateRows, MENTION_COLUMNS, mentionRows, type CandidateRow, type MentionRow } from "@/lib/analysis/rows";
import { rewriteRollups } from "@/lib/analytics/rollups";
import { ANSWER_SOURCES, type AnswerSource } from "@/lib/analytics/rollup-tables";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { transaction } from "@/lib/db/transaction";
import { LATEST_RUN_FIRST } from "@/lib/jobs/analysis-runs";
import { enqueueAlertEvaluation, REANALYSIS_JOB_SPEC } from "@/lib/jobs/enqueue";
import type { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

/** Answers per batch (one transaction). */
export const REANALYSIS_BATCH = 200;

/**
 * A succeeded answer analysed with older inputs than the brand's `version`, or not analysed
 * (its analysis failed, or could not be stored): what a re-analysis works through.
 */
export const stale = (version: number): Prisma.CaptureWhereInput => ({
  status: "succeeded",
  finishedAt: { not: null }, // set by every success (beacon_succeed); a run goes in its order
  OR: [{ analysisVersion: null }, { analysisVersion: { lt: version } }],
});

/**
 * Raw answers are kept, so when a brand's names, domains or competitors change its history can
 * follow the new rules: this queues a background re-analysis of the brand's answers analysed
 * with older inputs than its analysis version, which the caller's edit has just raised (one
 * whose engine showed no answer is analysed as an empty answer). One run at a time per brand
 * (graphile-worker named queue); a change made while a run is still waiting reuses it, and a run
 * starting meanwhile waits for the change's commit. An answer recorded with older inputs after a
 * run passed it does the same itself (beacon_succeed); both through beacon_reanalysis_run.
 */
export async function startReanalysis(tx: Tx, workspaceId: string, brandId: string): Promise<string | null> {
  const { analysisVersion } = await tx.brand.findUniqueOrThrow({ where: { id: brandId }, select: { analysisVersion: true } });
  const total = await tx.capture.count({ where: { workspaceId, brandId, ...stale(analysisVersion) } });
  if (!total) return null;
  return queueRun(tx, workspaceId, brandId, total);
}

async function queueRun(tx: Tx, workspaceId: string, brandId: string, total: number): Promise<string> {
  // The run still waiting, locked (or a new one queued): beacon_reanalysis_run, beacon_succeed's rule too.
  const [run] = await tx.$queryRaw<{ id: string }[]>`SELECT beacon_reanalysis_run(${workspaceId}::uuid, ${brandId}::uuid, ${REANALYSIS_JOB_SPEC}::jsonb) AS id`;
  await pausePoint("reanalysis:waiting-run-found", { tx });
  await tx.analysisRun.update({ where: { id: run!.id }, data: { total } });
  return run!.id;
}

/**
 * The Brands page's "Try again" for a re-analysis whose job gave up (every attempt failed): the
 * brand's alert rules wait until its history is analysed alike (lib/alerts/evaluate.ts), so
 * without this they would wait until its next edit. Queues a run (or finds the one waiting: a
 * second click) even when no answer is left to do, so the run that ends it also asks for the
 * evaluation. Refused unless the brand's latest run failed.
 */
export function retryReanalysis(workspaceId: string, brandId: string): Promise<{ runId: string }> {
  return transaction(async (tx) => {
    // The brand's row locked: two clicks, or a click beside an edit, queue one run.
    const [brand] = await tx.$queryRaw<{ version: number }[]>`
      SELECT "analysisVersion" AS version FROM brands WHERE id = ${brandId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!brand) throw new NotFoundError("That brand does not exist in this workspace.");
    // A run still waiting (the one beacon_reanalysis_run would reuse): a second click, or one queued again after a failed attempt.
    const waiting = await tx.analysisRun.findFirst({ where: { brandId, status: "queued" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (waiting) return { runId: waiting.id };
    const latest = await tx.analysisRun.findFirst({ where: { brandId }, orderBy: [...LATEST_RUN_FIRST], select: { id: true, status: true } });
    if (latest?.status !== "failed") throw new ConflictError("This brand's answers are not waiting for a re-analysis that failed.");
    const total = await tx.capture.count({ where: { workspaceId, brandId, ...stale(brand.version) } });
    return { runId: await queueRun(tx, workspaceId, brandId, total) };
  });
}

/**
 * Works through the brand's answers analysed with older inputs, in batches, saving progress
 * after each, and stamps each with the version it was analysed with: first those whose
 * dashboard numbers the edit moves (firstAnswerIds), then all in the order they finished. When it
 * reaches the end it looks again from the start, for answers recorded behind it, until none is
 * left. A batch checks the brand's version under a share lock on its row: an edit since the run
 * read the brand has queued the run that follows it, and this one stops. `lastAttempt`: whether
 * its job will make no attempt after this one (a call outside the job: none follows).
 */
export async function runReanalysis(analysisRunId: string, { lastAttempt = true }: { lastAttempt?: boolean } = {}): Promise<void> {
  const run = await db().analysisRun.findUnique({ where: { id: analysisRunId } });
  if (!run || run.status === "completed") return;
  // First, before the brand is read: an edit reusing this run holds its row until it commits
  // (beacon_reanalysis_run), so the brand read below is the edit's.
  await db().analysisRun.update({ where: { id: run.id }, data: { status: "running", startedAt: new Date(), done: 0, error: null } });
  try {
    const brand = await db().brand.findUniqueOrThrow({ where: { id: run.brandId }, select: BRAND_INPUTS });
    // This attempt's work, counted again: what an earlier attempt of the run did is done, and
    // answers recorded since are to do, so its progress and time left are this attempt's.
    const total = await db().capture.count({ where: { workspaceId: run.workspaceId, brandId: run.brandId, ...stale(brand.analysisVersion) } });
    await db().analysisRun.update({ where: { id: run.id }, data: { total } });
    let done = 0;
    let current = true; // false once the brand changed since: the run queued by that edit takes over
    // First the answers whose dashboard numbers the edit moves, then every answer in turn.
    for await (const captures of firstBatches(run.workspaceId, brand)) {
      if (!(current = await reanalyzeBatch(run, brand, captures, done))) break;
      done += captures.length;
    }
    for (let after: BatchCursor | undefined; current; ) {
      const captures = await staleBatch(run.workspaceId, brand, after);
      if (!captures.length) {
        if (after === undefined) break;
        after = undefined;
        continue;
      }
      if (!(current = await reanalyzeBatch(run, brand, captures, done))) break;
      done += captures.length;
      after = cursorAfter(captures);
    }
    // The brand's alert rules waited for this run (lib/alerts/evaluate.ts): judged now, on history
    // analysed alike; every kind ("daily"), since the ones only the daily pass judges waited too.
    await transaction(async (tx) => {
      await tx.analysisRun.update({ where: { id: run.id }, data: { status: "completed", done, total: Math.max(done, total), finishedAt: new Date() } });
      await enqueueAlertEvaluation(tx, { workspaceId: run.workspaceId, reason: "daily" });
    });
  } catch (error) {
    // Before the job's last attempt the run is waiting again (an edit meanwhile reuses it, as it
    // would a run not started); after it, failed: the Brands page shows it and offers a retry.
    const message = (error as Error).message.slice(0, 500);
    await db().analysisRun.update({
      where: { id: run.id },
      data: lastAttempt ? { status: "failed", error: message, finishedAt: new Date() } : { status: "queued", error: message },
    });
    throw error;
  }
}

export type ReanalysisBrand = Prisma.BrandGetPayload<{ select: typeof BRAND_INPUTS }>;
/** What a run reads of its brand: the analysis's inputs and their version. */
export const BRAND_INPUTS = {
  id: true,
  name: true,
  aliases: true,
  caseSensitiveAliases: true,
  domains: true,
  analysisVersion: true,
  competitors: { select: { id: true, name: true, aliases: true, caseSensitiveAliases: true, domains: true }, orderBy: { createdAt: "asc" } },
} satisfies Prisma.BrandSelect;

/** What a batch reads of each answer. */
export const BATCH_ANSWER = {
  id: true,
  finishedAt: true,
  answerText: true,
  promptVersion: { select: { language: true } },
} satisfies Prisma.CaptureSelect;

/** Where a run is in the brand's answers: the last one of its previous batch. */
type BatchCursor = { finishedAt: Date; id: string };
const cursorAfter = (answers: { id: string; finishedAt: Date | null }[]): BatchCursor => {
  const last = answers[answers.length - 1]!;
  return { finishedAt: last.finishedAt!, id: last.id };
};
/** The brand's answers analysed with older inputs after `after`, in the order they finished. */
const staleAfter = (workspaceId: string, brand: Pick<ReanalysisBrand, "id" | "analysisVersion">, after?: BatchCursor) =>
  ({
    workspaceId,
    brandId: brand.id,
    ...stale(brand.analysisVersion),
    // After the cursor: a succeeded answer's finish time never changes.
    ...(after ? { AND: [{ finishedAt: { gte: after.finishedAt } }, { NOT: { finishedAt: after.finishedAt, id: { lte: after.id } } }] } : {}),
  }) satisfies Prisma.CaptureWhereInput;
const FINISH_ORDER = [{ finishedAt: "asc" }, { id: "asc" }] satisfies Prisma.CaptureOrderByWithRelationInput[];

/**
 * The run's next batch: the brand's answers analysed with older inputs after `after`, in the order
 * they finished. Neighbours in time share most of their rollup rows (a day, a week, a domain of
 * that week), so a batch rewrites fewer rows, and warmer ones, than one picked across the whole
 * history by id: 1.5 against 2.3 s a batch at a million answers (`npm run bench -- --reanalysis`).
 */
export function staleBatch(workspaceId: string, brand: Pick<ReanalysisBrand, "id" | "analysisVersion">, after?: BatchCursor) {
  return db().capture.findMany({ where: staleAfter(workspaceId, brand, after), select: BATCH_ANSWER, orderBy: FINISH_ORDER, take: REANALYSIS_BATCH });
}

/** Answers the scan for the ones to rewrite first reads at a time. */
export const FIRST_WINDOW = 5_000;

/**
 * The answers whose dashboard numbers the edit moves, which a run rewrites before the rest. An
 * answer that names a competitor no longer tracked (deleted by the edit, its rows left to the
 * run: lib/brands/brands.ts removeCompetitors) counts it until rewritten: in its totals of
 * tracked mentions, its gap answers, the brand's position behind it. One whose untracked names
 * (capture_candidates) include a name the brand now tracks as written (a competitor or an alias
 * added; its key, not its inflected forms) lacks its mention. Most other answers of a removal
 * only lose the removed competitor's unnamed row, which no dashboard shows, so most of what moves
 * has moved once these are rewritten (at a million answers: `npm run bench -- --reanalysis`); not
 * all (an answer in flight at the edit, a common-word cue, a folded key: docs/analysis.md), which
 * is why the dashboards' notice stays until the run ends. A
 * name added that no answer listed as an option, an alias removed, a rename or a domain changed
 * is found by the run's pass over every answer, as before. Yields their ids in batches, in the
 * order they finished, from a scan of windows of FIRST_WINDOW answers (`windowSize`, for tests);
 * nothing, and no scan, when none of the brand's competitors is gone and no answer listed a
 * tracked name.
 */
export async function* firstAnswerIds(workspaceId: string, brand: ReanalysisBrand, { windowSize = FIRST_WINDOW } = {}): AsyncGenerator<string[]> {
  // The brand's competitors that some answer's rows still hold and that exist no more: a skip
  // scan of the index on mentions("competitorId"), a probe per competitor there is or was, each
  // gone one's brand read from one of its rows (a competitor's rows are all its brand's answers).
  const gone = (
    await db().$queryRaw<{ id: string }[]>`
      WITH RECURSIVE held AS (
        (SELECT "competitorId" AS id FROM mentions WHERE "competitorId" IS NOT NULL ORDER BY "competitorId" LIMIT 1)
        UNION ALL
        SELECT (SELECT m."competitorId" FROM mentions m WHERE m."competitorId" > held.id ORDER BY m."competitorId" LIMIT 1) FROM held WHERE held.id IS NOT NULL)
      SELECT id::text FROM held
      WHERE id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM competitors c WHERE c.id = held.id)
        AND (SELECT c."brandId" FROM mentions m JOIN captures c ON c.id = m."captureId" WHERE m."competitorId" = held.id LIMIT 1) = ${brand.id}::uuid`
  ).map((row) => row.id);
  // A candidate with a tracked name's key was listed before the name was tracked (the analysis
  // keeps tracked names out of the candidates).
  const keys = trackedKeys([brand, ...brand.competitors]);
  const [listed] = await db().$queryRaw<unknown[]>`
    SELECT 1 FROM capture_candidates WHERE "workspaceId" = ${workspaceId}::uuid AND "brandId" = ${brand.id}::uuid AND key = ANY(${keys}::text[]) LIMIT 1`;
  if (!gone.length && !listed) return;
  for (let after: BatchCursor | undefined; ; ) {
    // An edit since the run read the brand queued the run that follows: this one stops at its
    // next batch, so a scan that finds little does not go on for a minute first.
    const now = await db().brand.findUnique({ where: { id: brand.id }, select: { analysisVersion: true } });
    if (now?.analysisVersion !== brand.analysisVersion) return;
    const window = await db().capture.findMany({ where: staleAfter(workspaceId, brand, after), select: { id: true, finishedAt: true }, orderBy: FINISH_ORDER, take: windowSize });
    if (!window.length) return;
    const ids = window.map((c) => c.id);
    // Each window's rows by answer (the indexes on "captureId"), as arrays: one statement whatever the lengths.
    const first = new Set(
      (
        await db().$queryRaw<{ id: string }[]>`
          SELECT "captureId"::text AS id FROM mentions WHERE "captureId" = ANY(${ids}::uuid[]) AND "competitorId" = ANY(${gone}::uuid[]) AND mentioned
          UNION
          SELECT "captureId"::text FROM capture_candidates WHERE "captureId" = ANY(${ids}::uuid[]) AND key = ANY(${keys}::text[])`
      ).map((row) => row.id),
    );
    const picked = ids.filter((id) => first.has(id));
    for (let i = 0; i < picked.length; i += REANALYSIS_BATCH) yield picked.slice(i, i + REANALYSIS_BATCH);
    if (window.length < windowSize) return;
    after = cursorAfter(window);
  }
}

/** firstAnswerIds' batches, each read as a batch of the run reads its answers. */
export async function* firstBatches(workspaceId: string, brand: ReanalysisBrand) {
  for await (const ids of firstAnswerIds(workspaceId, brand)) {
    yield await db().capture.findMany({ where: { id: { in: ids } }, select: BATCH_ANSWER, orderBy: FINISH_ORDER });
  }
}

/**
 * One batch analysed again and written with the rollups it moves, its answers stamped with the
 * brand's version and the run's progress saved, in one transaction. False when the brand's
 * version moved on since the run read it (nothing written).
 */
export async function reanalyzeBatch(
  run: { id: string; workspaceId: string },
  brand: ReanalysisBrand,
  captures: Prisma.CaptureGetPayload<{ select: typeof BATCH_ANSWER }>[],
  done: number,
): Promise<boolean> {
  // The worker's analysis, cap included; computed before the transaction opens.
  const analyses = captures.map((capture) => ({ capture, analysis: analyzeAnswer({ answer: capture.answerText ?? "", brand, competitors: brand.competitors, language: capture.promptVersion.language }) }));
  // A batch is all or nothing: one PostgreSQL picks as a deadlock's victim (its rollup rows are
  // taken in the lock order, as a success's, but it locks answers and raw rows too) runs again
  // rather than failing the whole run (lib/db/transaction.ts). Its analyses are computed outside
  // and only read inside, so a run again writes the same rows.
  return transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ version: number }[]>`SELECT "analysisVersion" AS version FROM brands WHERE id = ${brand.id}::uuid FOR SHARE`;
    if (row?.version !== brand.analysisVersion) return false;
    // The batch's answers still to do, locked: a second run of this job (its worker's lease
    // ran out while it went on) waits here for this batch, then finds it done, instead of
    // taking the batch's contribution away from the rollups a second time.
    const todo = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM captures WHERE id = ANY(${captures.map((c) => c.id)}::uuid[]) AND status = 'succeeded'
        AND ("analysisVersion" IS NULL OR "analysisVersion" < ${brand.analysisVersion}) ORDER BY id FOR NO KEY UPDATE`;
    const still = new Set(todo.map((c) => c.id));
    const batch = analyses.filter(({ capture }) => still.has(capture.id));
    const ids = batch.map(({ capture }) => capture.id);
    // Only the answers whose rows the new inputs change are rewritten (an alias or a domain most
    // answers never name leaves theirs as they were): an unchanged answer's rollup contribution
    // is the same, and staging it twice is most of a batch's cost.
    const { changed, sources, citations } = await rowsToRewrite(tx, batch, brand);
    if (changed.length) {
      const changedIds = changed.map(({ capture }) => capture.id);
      // The dashboards' rollups follow the rewritten mentions, domains and own-domain flags.
      await rewriteRollups(tx, changedIds, async () => {
        await tx.mention.deleteMany({ where: { captureId: { in: changedIds } } });
        await tx.mention.createMany({
          data: changed.flatMap(({ capture, mentions }) => mentions.map((m) => ({ ...m, workspaceId: run.workspaceId, captureId: capture.id }))),
        });
        // The untracked names by the brand's entities now (competitor discovery's stored input).
        const candidates = changed.flatMap(({ capture, candidates }) => candidates.map((c) => ({ ...c, captureId: capture.id })));
        await tx.$executeRaw`DELETE FROM capture_candidates WHERE "captureId" = ANY(${changedIds}::uuid[])`;
        await tx.$executeRaw`
          INSERT INTO capture_candidates ("captureId", key, name, "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId")
          SELECT c.id, v.key, v.name, c."workspaceId", c."brandId", c."finishedAt", c."providerConfigId", c."promptId"
          FROM unnest(${candidates.map((c) => c.captureId)}::uuid[], ${candidates.map((c) => c.key)}::text[], ${candidates.map((c) => c.name)}::text[]) AS v(id, key, name)
          JOIN captures c ON c.id = v.id AND c."finishedAt" IS NOT NULL`;
        if (citations.length) {
          await tx.$executeRaw`
            UPDATE citations SET domain = v.domain, "isOwnDomain" = v.own
            FROM unnest(${citations.map((c) => c.id)}::uuid[], ${citations.map((c) => c.domain)}::text[], ${citations.map((c) => c.own)}::boolean[]) AS v(id, domain, own)
            WHERE citations.id = v.id`;
        }
      }, sources);
    }
    const truncated = batch.filter((a) => a.analysis.truncated).map((a) => a.capture.id);
    await tx.capture.updateMany({ where: { id: { in: ids } }, data: { analyzedAt: new Date(), analysisTruncated: false, analysisVersion: brand.analysisVersion } });
    await tx.capture.updateMany({ where: { id: { in: truncated } }, data: { analysisTruncated: true } });
    await tx.analysisRun.update({ where: { id: run.id }, data: { done: done + captures.length } });
    await pausePoint("reanalysis:batch-before-commit", { tx, workspaceId: run.workspaceId });
    return true;
  });
}

type BatchAnalysis = { capture: Prisma.CaptureGetPayload<{ select: typeof BATCH_ANSWER }>; analysis: AnalysisResult };
type Rewrite = { capture: BatchAnalysis["capture"]; mentions: MentionRow[]; candidates: CandidateRow[] };

/** A row as a string that equals another's exactly when every column the analysis writes does. */
const rowKey = <Row>(columns: readonly (keyof Row)[]) => (row: Row) => JSON.stringify(columns.map((column) => row[column]));
const mentionRowKey = rowKey<MentionRow>(MENTION_COLUMNS);
const candidateRowKey = rowKey<CandidateRow>(CANDIDATE_COLUMNS);
/** A select of those columns and the answer's id. */
const selectRow = <Column extends string>(columns: readonly Column[]) =>
  ({ captureId: true, ...Object.fromEntries(columns.map((column) => [column, true])) }) as { [C in Column | "captureId"]: true };
/** An answer's rows of one kind, in one order, as one string. */
const rowsKey = (keys: string[] = []) => [...keys].sort().join("\n");

function groupByCapture<T extends { captureId: string }>(rows: T[], key: (row: T) => string): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const keys = grouped.get(row.captureId);
    if (keys) keys.push(key(row));
    else grouped.set(row.captureId, [key(row)]);
  }
  return grouped;
}

/**
 * What a batch writes, read against what is stored (in its transaction, its answers locked):
 * the answers whose mentions or candidates differ from the new analysis' rows, or with a
 * citation whose domain (today's rules: the public suffix list's private section was once
 * ignored) or own-site flag differs, each with its new rows; the kinds of rows that differ; and
 * those citations. An answer whose rows all read the same is left as it is: every rollup sums only
 * these rows.
 */
async function rowsToRewrite(tx: Tx, batch: BatchAnalysis[], brand: ReanalysisBrand) {
  const ids = batch.map(({ capture }) => capture.id);
  const storedMentions = groupByCapture(
    await tx.mention.findMany({ where: { captureId: { in: ids } }, select: selectRow(MENTION_COLUMNS) }),
    mentionRowKey,
  );
  const storedCandidates = groupByCapture(
    await tx.captureCandidate.findMany({ where: { captureId: { in: ids } }, select: selectRow(CANDIDATE_COLUMNS) }),
    candidateRowKey,
  );
  const citations = (await tx.citation.findMany({ where: { captureId: { in: ids } }, select: { id: true, captureId: true, url: true, title: true, domain: true, isOwnDomain: true } })).map(
    (c) => {
      const domain = domainOf(c.url, c.title) ?? c.domain;
      const own = isOwnDomain(domain, brand.domains);
      return { id: c.id, captureId: c.captureId, domain, own, differs: domain !== c.domain || own !== c.isOwnDomain };
    },
  );
  const citationsChanged = new Set(citations.filter((c) => c.differs).map((c) => c.captureId));
  const changed: Rewrite[] = [];
  // The kinds of rows that differ in any answer: the rollups that read none of them are not staged.
  const sources = new Set<AnswerSource>();
  for (const { capture, analysis } of batch) {
    const mentions = mentionRows(analysis, brand.id, brand.competitors.map((c) => c.id));
    const candidates = candidateRows(analysis);
    const differ = {
      mentions: rowsKey(mentions.map(mentionRowKey)) !== rowsKey(storedMentions.get(capture.id)),
      candidates: rowsKey(candidates.map(candidateRowKey)) !== rowsKey(storedCandidates.get(capture.id)),
      citations: citationsChanged.has(capture.id),
    } satisfies Record<AnswerSource, boolean>;
    for (const source of ANSWER_SOURCES) if (differ[source]) sources.add(source);
    if (ANSWER_SOURCES.some((source) => differ[source])) changed.push({ capture, mentions, candidates });
  }
  return { changed, sources: [...sources], citations: citations.filter((c) => c.differs).map(({ id, domain, own }) => ({ id, domain, own })) };
}
