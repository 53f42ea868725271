// npm run bench -- --reanalysis [--captures=N] [--batches=N]: a brand edit's re-analysis at scale
// (lib/brands/reanalysis.ts). The demo workspace gets N succeeded captures over a year (default
// 1,000,000; analytics-scale's generator) and their rollups. Then the brand's analysis version is
// raised, as an edit does, so every answer is to do, and `batches` batches of the run are timed
// as the run makes them (staleBatch picks, reanalyzeBatch analyses, rewrites the rollups and
// commits), in the run's order (the order the answers finished), alternating with as many
// batches of the answers left in id order, the order runs used before, which spreads each batch
// over the whole history. Each batch is committed. The generated answers' text names no one, so a batch takes
// their generated mentions away, and their citations' domains move (the generator's
// source-N.example.com is example.com by today's rules): every answer changes, the rollups' most work. A kept
// database (BENCH_REANALYSIS_DATABASE_URL) is measured as it is, so a second run on it rewrites
// answers the first one already emptied: give each run a fresh copy. Then the run's first
// `batches` batches are timed twice more: after an edit with the same inputs (the answers the first
// pass rewrote now read as stored, so a batch only stamps them), and after a competitor's removal
// (each answer loses its row: mentions only, the citation and candidate rollups are not staged).
// Last, a second competitor's removal as its run begins: the run's scan for the answers whose
// numbers the removal moves (firstBatches: those naming it) is timed whole without rewriting
// them, then its first `batches` batches are rewritten and timed, so the time until most of what
// the removal moves has moved can be set beside the whole run's.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { BATCH_ANSWER, BRAND_INPUTS, firstAnswerIds, firstBatches, REANALYSIS_BATCH, reanalyzeBatch, stale, staleBatch, type ReanalysisBrand } from "@/lib/brands/reanalysis";
import { db } from "@/lib/db/prisma";
import { connect } from "../lib/database";
import { buildRollups } from "../lib/rollups";
import { round, summarize, type Summary } from "../lib/stats";
import { demoIds, generate } from "./analytics-scale";

export type ReanalysisOrderRow = { order: string; batches: number; answers: number; pickMs: Summary; batchMs: Summary; answersPerSecond: number };
/** A competitor's removal: the answers to do, those naming it (rewritten first) and how long finding them all took. */
export type FirstPass = { stale: number; named: number; scanSeconds: number };
export type ReanalysisResult = { captures: number; generateSeconds: number; batchSize: number; rows: ReanalysisOrderRow[]; first?: FirstPass };

export async function measureReanalysis(url: string, options: { captures: number; batches: number; log: (line: string) => void }): Promise<ReanalysisResult> {
  const { captures, batches, log } = options;
  const ids = await demoIds();
  const client = await connect(url);
  try {
    const t0 = performance.now();
    const { rows: existing } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM captures WHERE "workspaceId" = $1`, [ids.workspaceId]);
    if (existing[0]!.n === 0) {
      await client.query("SET timezone = 'UTC'");
      await generate(client, ids, captures, log);
      await buildRollups(url, ids.workspaceId, log, "reanalysis");
      log("reanalysis: VACUUM ANALYZE");
      await client.query("VACUUM ANALYZE");
    } else log(`reanalysis: the database already holds ${existing[0]!.n.toLocaleString("en-US")} captures; measuring them as they are`);
    const generateSeconds = round((performance.now() - t0) / 1000, 0);

    // As an edit does: the brand's inputs get a new version, and every answer is to do.
    await client.query(`UPDATE brands SET "analysisVersion" = "analysisVersion" + 1 WHERE id = $1`, [ids.brandId]);
    const brand = await db().brand.findUniqueOrThrow({ where: { id: ids.brandId }, select: BRAND_INPUTS });
    const run = await db().analysisRun.create({ data: { workspaceId: ids.workspaceId, brandId: brand.id, status: "running", startedAt: new Date() } });
    let done = 0;
    let after: { finishedAt: Date; id: string } | undefined;
    let afterId: string | undefined;
    const timings = (order: string) => ({ order, pickMs: [] as number[], batchMs: [] as number[], answers: 0 });
    const orders = [
      {
        order: "the run's: by finish time",
        pick: async () => {
          const batch = await staleBatch(ids.workspaceId, brand, after);
          const last = batch.at(-1);
          if (last) after = { finishedAt: last.finishedAt!, id: last.id };
          return batch;
        },
      },
      {
        // The run's query in id order (a uuid's: random in time), what runs did before.
        order: "before: by id",
        pick: async () => {
          const batch = await db().capture.findMany({
            where: { workspaceId: ids.workspaceId, brandId: brand.id, ...stale(brand.analysisVersion), ...(afterId ? { id: { gt: afterId } } : {}) },
            select: BATCH_ANSWER,
            orderBy: { id: "asc" },
            take: REANALYSIS_BATCH,
          });
          afterId = batch.at(-1)?.id;
          return batch;
        },
      },
    ].map((o) => ({ ...o, ...timings(o.order) }));
    const unchanged = timings("an edit that changes none of them, by finish time");
    const mentionsOnly = timings("a competitor removed (mentions only), by finish time");
    const namedFirst = timings("a competitor removed: the answers naming it, first");
    let first: FirstPass | undefined;
    /** Picks a batch and re-analyses it as the run does, timing both into `t`; false when none is left. */
    const timeBatch = async (t: ReturnType<typeof timings>, inputs: ReanalysisBrand, pick: () => Promise<Awaited<ReturnType<typeof staleBatch>>>) => {
      const t1 = performance.now();
      const batch = await pick();
      const t2 = performance.now();
      if (!batch.length) return false;
      if (!(await reanalyzeBatch(run, inputs, batch, done))) throw new Error("the brand's version moved during the benchmark");
      t.batchMs.push(performance.now() - t2);
      t.pickMs.push(t2 - t1);
      t.answers += batch.length;
      done += batch.length;
      return true;
    };
    try {
      // The two orders alternate, each going first every other round: the cache and the dead rows
      // one leaves are the other's as much.
      for (let i = 0; i < batches; i++) {
        for (const o of i % 2 ? [...orders].reverse() : orders) await timeBatch(o, brand, o.pick);
      }
      // Then the run's first batches again, twice: the answers the first pass rewrote (their
      // citations' domains by today's rules, their mentions as the analysis writes them).
      // - A second edit that changes none of them (the same inputs): each answer only stamped.
      // - A third that removes a competitor (as the brand form's edit does: it is deleted, its
      //   rows left to the run): each answer loses its row, mentions only, so the rewrite stages
      //   no domain, page or candidate rollup.
      const removeACompetitor = async () => {
        const [competitor] = (await client.query<{ id: string }>(`SELECT id FROM competitors WHERE "brandId" = $1 ORDER BY "createdAt", id LIMIT 1`, [ids.brandId])).rows;
        await client.query(`DELETE FROM competitors WHERE id = $1`, [competitor!.id]);
      };
      const edited = async () => {
        await client.query(`UPDATE brands SET "analysisVersion" = "analysisVersion" + 1 WHERE id = $1`, [ids.brandId]);
        return db().brand.findUniqueOrThrow({ where: { id: ids.brandId }, select: BRAND_INPUTS });
      };
      for (const timed of [unchanged, mentionsOnly]) {
        if (timed === mentionsOnly) await removeACompetitor();
        const again = await edited();
        let cursor: { finishedAt: Date; id: string } | undefined;
        const pick = async () => {
          const batch = await staleBatch(ids.workspaceId, again, cursor);
          const last = batch.at(-1);
          if (last) cursor = { finishedAt: last.finishedAt!, id: last.id };
          return batch;
        };
        for (let i = 0; i < batches && (await timeBatch(timed, again, pick)); i++);
      }
      // A second competitor removed: the run's scan for the answers naming it, whole, then its batches.
      await removeACompetitor();
      const again = await edited();
      const t0 = performance.now();
      let named = 0;
      for await (const batch of firstAnswerIds(ids.workspaceId, again)) named += batch.length;
      const scanSeconds = round((performance.now() - t0) / 1000, 1);
      first = { stale: await db().capture.count({ where: { workspaceId: ids.workspaceId, brandId: ids.brandId, ...stale(again.analysisVersion) } }), named, scanSeconds };
      log(`reanalysis: a competitor removed: ${named.toLocaleString("en-US")} of ${first.stale.toLocaleString("en-US")} answers name it, found in ${scanSeconds} s`);
      const batchesFirst = firstBatches(ids.workspaceId, again);
      const pickFirst = async () => (await batchesFirst.next()).value ?? [];
      for (let i = 0; i < batches && (await timeBatch(namedFirst, again, pickFirst)); i++);
      await batchesFirst.return(undefined);
    } finally {
      await db().analysisRun.update({ where: { id: run.id }, data: { status: "completed", done, finishedAt: new Date() } });
    }
    const rows = [...orders, unchanged, mentionsOnly, namedFirst].map(({ order, pickMs, batchMs, answers }) => ({
      order,
      batches: batchMs.length,
      answers,
      pickMs: summarize(pickMs),
      batchMs: summarize(batchMs),
      answersPerSecond: round(answers / (batchMs.reduce((a, b) => a + b, 0) / 1000), 0),
    }));
    for (const row of rows) log(`reanalysis: ${row.order}: ${row.batches} batches, median ${row.batchMs.median} ms, p95 ${row.batchMs.p95} ms, ${row.answersPerSecond} answers/s`);
    return { captures: existing[0]!.n || captures, generateSeconds, batchSize: REANALYSIS_BATCH, rows, first };
  } finally {
    await client.end();
  }
}

export function reanalysisMarkdown(r: ReanalysisResult, header: string): string {
  return [
    header,
    "",
    `${r.captures.toLocaleString("en-US")} answers over a year; batches of ${r.batchSize} answers, each analysed, its rollups rewritten and committed.`,
    "",
    "| batch order | batches | pick median | batch median | batch p95 | answers/s |",
    "| --- | --- | --- | --- | --- | --- |",
    ...r.rows.map((row) => `| ${row.order} | ${row.batches} | ${row.pickMs.median} ms | ${row.batchMs.median} ms | ${row.batchMs.p95} ms | ${row.answersPerSecond} |`),
    ...firstPassLines(r),
  ].join("\n");
}

/**
 * A competitor's removal: how long finding the answers that name it takes, and when they are
 * rewritten: at the rate measured for them here (the generated answers' first rewrite moves their
 * citations too), and at a removal's rate (mentions only), which is what a real history's take.
 */
function firstPassLines(r: ReanalysisResult): string[] {
  const rate = (order: string) => r.rows.find((row) => row.order.startsWith(order))?.answersPerSecond;
  const [first, removal] = [rate("a competitor removed: the answers naming it"), rate("a competitor removed (mentions only)")];
  if (!r.first || !first || !removal) return [];
  const { stale, named, scanSeconds } = r.first;
  const minutes = (seconds: number) => round(seconds / 60, 1);
  return [
    "",
    `Competitors removed: ${named.toLocaleString("en-US")} of the ${stale.toLocaleString("en-US")} answers to do name one, found by the run's scan in ${scanSeconds} s. ` +
      `At their rate here (${first} answers/s: their citations move too), they are rewritten after about ${minutes(scanSeconds + named / first)} min; ` +
      `at a removal's rate (${removal} answers/s, mentions only), after about ${minutes(scanSeconds + named / removal)} min, the whole run after about ${minutes(scanSeconds + stale / removal)} min.`,
  ];
}
