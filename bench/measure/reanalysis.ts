// npm run bench -- --reanalysis [--captures=N] [--batches=N]: a brand edit's re-analysis at scale
// (lib/brands/reanalysis.ts). The demo workspace gets N succeeded captures over a year (default
// 1,000,000; analytics-scale's generator) and their rollups. Then the brand's analysis version is
// raised, as an edit does, so every answer is to do, and `batches` batches of the run are timed
// as the run makes them (staleBatch picks, reanalyzeBatch analyses, rewrites the rollups and
// commits), in the run's order (the order the answers finished); then as many batches of the
// answers left in id order, the order runs used before, which spreads each batch over the whole
// history. Each batch is committed. The generated answers' text names no one, so a batch takes
// their generated mentions away: every answer's analysis changes, the rollups' most work. A kept
// database (BENCH_REANALYSIS_DATABASE_URL) is measured as it is, so a second run on it rewrites
// answers the first one already emptied: give each run a fresh copy.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { BRAND_INPUTS, REANALYSIS_BATCH, reanalyzeBatch, staleBatch } from "@/lib/brands/reanalysis";
import { db } from "@/lib/db/prisma";
import { connect } from "../lib/database";
import { buildRollups } from "../lib/rollups";
import { round, summarize, type Summary } from "../lib/stats";
import { demoIds, generate } from "./analytics-scale";

export type ReanalysisOrderRow = { order: string; batches: number; answers: number; pickMs: Summary; batchMs: Summary; answersPerSecond: number };
export type ReanalysisResult = { captures: number; generateSeconds: number; batchSize: number; rows: ReanalysisOrderRow[] };

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
    const rows: ReanalysisOrderRow[] = [];
    let done = 0;
    try {
      const orders: [string, () => Promise<Awaited<ReturnType<typeof staleBatch>>>][] = [];
      let after: { finishedAt: Date; id: string } | undefined;
      orders.push([
        "the run's: by finish time",
        async () => {
          const batch = await staleBatch(ids.workspaceId, brand, after);
          const last = batch.at(-1);
          if (last) after = { finishedAt: last.finishedAt!, id: last.id };
          return batch;
        },
      ]);
      // The same query as staleBatch but in id order (a uuid's: random in time), what runs did before.
      let afterId: string | undefined;
      orders.push([
        "before: by id",
        async () => {
          const batch = await db().capture.findMany({
            where: { workspaceId: ids.workspaceId, brandId: brand.id, status: "succeeded", finishedAt: { not: null }, OR: [{ analysisVersion: null }, { analysisVersion: { lt: brand.analysisVersion } }], ...(afterId ? { id: { gt: afterId } } : {}) },
            select: { id: true, finishedAt: true, answerText: true, promptVersion: { select: { language: true } }, citations: { select: { id: true, url: true, title: true, domain: true } } },
            orderBy: { id: "asc" },
            take: REANALYSIS_BATCH,
          });
          afterId = batch.at(-1)?.id;
          return batch;
        },
      ]);
      for (const [order, pick] of orders) {
        const pickMs: number[] = [];
        const batchMs: number[] = [];
        let answers = 0;
        for (let i = 0; i < batches; i++) {
          const t1 = performance.now();
          const batch = await pick();
          const t2 = performance.now();
          if (!batch.length) break;
          if (!(await reanalyzeBatch(run, brand, batch, done))) throw new Error("the brand's version moved during the benchmark");
          batchMs.push(performance.now() - t2);
          pickMs.push(t2 - t1);
          answers += batch.length;
          done += batch.length;
        }
        const row = { order, batches: batchMs.length, answers, pickMs: summarize(pickMs), batchMs: summarize(batchMs), answersPerSecond: round(answers / (batchMs.reduce((a, b) => a + b, 0) / 1000), 0) };
        rows.push(row);
        log(`reanalysis: ${order}: ${row.batches} batches, median ${row.batchMs.median} ms, p95 ${row.batchMs.p95} ms, ${row.answersPerSecond} answers/s`);
      }
    } finally {
      await db().analysisRun.update({ where: { id: run.id }, data: { status: "completed", done, finishedAt: new Date() } });
    }
    return { captures: existing[0]!.n || captures, generateSeconds, batchSize: REANALYSIS_BATCH, rows };
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
  ].join("\n");
}
