// npm run bench -- --discovery [--captures=N] [--runs=N]: competitor discovery's daily pass
// (discoverUntrackedBrands, lib/alerts/discovery.ts) for a workspace with N answers (default
// 1,000,000) in the period it reads (the new-brand rule's window, 30 days here). The demo workspace
// (without its simulated history) gets N succeeded captures over the last 30 days and their stored
// candidates, generated in SQL: 0-4 names per answer from 2,000 names, skewed so that a few are
// named in most answers and most are rare; one name in ten also spelled in capitals, and one
// popular name in twelve spellings (past the 8 the name is chosen from, so its first-seen order is
// read). The rollups are then built by beacon_rollup_captures, what the success path calls per
// capture, over batches: the rows the pass reads are exactly the ones the success path keeps.
// Then the pass is timed: 2 warm-ups, then `runs` calls one at a time, for each scope a rule can
// have: the whole scope, one provider, one tag, one tag and one provider, two tags (on separate
// prompts, and sharing a prompt, without and with a provider filter).
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { discoverUntrackedBrands, type DiscoveryInput } from "@/lib/alerts/discovery";
import { db } from "@/lib/db/prisma";
import { DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import type pg from "pg";
import { connect } from "../lib/database";
import { buildRollups } from "../lib/rollups";
import { round, summarize, type Summary } from "../lib/stats";

const PERIOD_DAYS = 30;
const NAMES = 2_000;
const BATCH = 100_000;
/** Issue 20's goal for the daily pass at a million answers. */
export const DISCOVERY_GOAL_MS = 200;

export type DiscoveryScaleResult = {
  captures: number;
  candidateRows: number;
  rollupRows: number;
  dayRollupRows: number;
  tagRollupRows: number;
  generateSeconds: number;
  rollupSeconds: number;
  runs: number;
  rows: { scope: string; candidates: number; n: number; ms: Summary }[];
};

export async function measureDiscovery(url: string, options: { captures: number; runs: number; log: (line: string) => void }): Promise<DiscoveryScaleResult> {
  const { captures, runs, log } = options;
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: workspace.id }, orderBy: { createdAt: "asc" } });
  const prompts = await db().prompt.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, tags: true } });
  const providers = await db().providerConfig.findMany({ where: { workspaceId: workspace.id, enabled: true, connection: { adapter: "simulator" } }, orderBy: { name: "asc" }, select: { id: true } });
  const client = await connect(url);
  try {
    const t0 = performance.now();
    // A kept database (BENCH_DISCOVERY_DATABASE_URL) that holds the answers is measured as it is.
    const { rows: existing } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM captures WHERE "workspaceId" = $1`, [workspace.id]);
    if (existing[0]!.n === 0) await generate(client, { captures, log, workspace, brand, prompts, providers });
    else log(`discovery: the database already holds ${existing[0]!.n.toLocaleString("en-US")} captures; measuring them as they are`);
    const generateSeconds = round((performance.now() - t0) / 1000, 0);
    const t1 = performance.now();
    if (existing[0]!.n === 0) await buildRollups(url, workspace.id, log, "discovery");
    const rollupSeconds = round((performance.now() - t1) / 1000, 0);
    await client.query(
      "VACUUM ANALYZE captures, capture_candidates, rollup_candidates, rollup_candidate_days, rollup_candidate_day_totals, rollup_tag_candidates, rollup_candidate_prompt_days, rollup_candidate_prompt_weeks, rollup_candidate_prompt_provider_weeks, rollup_answers",
    );
    const counts = await client.query<{ k: string; r: string; d: string; t: string }>(
      `SELECT (SELECT count(*) FROM capture_candidates) AS k, (SELECT count(*) FROM rollup_candidates) AS r, (SELECT count(*) FROM rollup_candidate_days) AS d,
         (SELECT count(*) FROM rollup_tag_candidates) AS t`,
    );

    const day = 86_400_000;
    const end = Math.floor(Date.now() / day) * day + day;
    const base: DiscoveryInput = { workspaceId: workspace.id, brandId: brand.id, from: new Date(end - PERIOD_DAYS * day), to: new Date(end) };
    const tag = prompts.flatMap((p) => p.tags)[0];
    // A second tag of prompts without the first, so that the two tags' prompts add up.
    const other = prompts.find((p) => tag && !p.tags.includes(tag))?.tags[0];
    // Two tags of one prompt (the pair most prompts carry), so that an answer of that prompt counts once.
    const pairs = prompts.map((p) => [...new Set(p.tags)].slice(0, 2)).filter((pair) => pair.length === 2);
    const shared = pairs.sort((a, b) => pairs.filter((s) => s.join() === b.join()).length - pairs.filter((s) => s.join() === a.join()).length)[0];
    const provider = [providers[0]!.id];
    const scopes: { scope: string; input: DiscoveryInput }[] = [
      { scope: `all answers, ${PERIOD_DAYS} days`, input: base },
      { scope: "one provider", input: { ...base, providerConfigIds: provider } },
      ...(tag ? [{ scope: `one tag (${tag})`, input: { ...base, tags: [tag] } }] : []),
      ...(tag ? [{ scope: `one tag (${tag}), one provider`, input: { ...base, tags: [tag], providerConfigIds: provider } }] : []),
      ...(tag && other ? [{ scope: `two tags (${tag}, ${other})`, input: { ...base, tags: [tag, other] } }] : []),
      ...(shared ? [{ scope: `two tags sharing a prompt (${shared.join(", ")})`, input: { ...base, tags: shared } }] : []),
      ...(shared ? [{ scope: `two tags sharing a prompt (${shared.join(", ")}), one provider`, input: { ...base, tags: shared, providerConfigIds: provider } }] : []),
    ];
    const rows: DiscoveryScaleResult["rows"] = [];
    for (const { scope, input } of scopes) {
      let result = await discoverUntrackedBrands(input);
      await discoverUntrackedBrands(input);
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        result = await discoverUntrackedBrands(input);
        ms.push(performance.now() - start);
      }
      rows.push({ scope, candidates: result.candidates.length, n: result.n, ms: summarize(ms) });
      log(`discovery: ${scope}: n ${result.n}, median ${summarize(ms).median} ms, p95 ${summarize(ms).p95} ms`);
    }
    return { captures, candidateRows: Number(counts.rows[0]!.k), rollupRows: Number(counts.rows[0]!.r), dayRollupRows: Number(counts.rows[0]!.d), tagRollupRows: Number(counts.rows[0]!.t), generateSeconds, rollupSeconds, runs, rows };
  } finally {
    await client.end();
  }
}

/** N succeeded answers over the last PERIOD_DAYS days with their stored candidates, generated in SQL. */
async function generate(
  client: pg.Client,
  { captures, log, workspace, brand, prompts, providers }: { captures: number; log: (line: string) => void; workspace: { id: string }; brand: { id: string }; prompts: { id: string }[]; providers: { id: string }[] },
): Promise<void> {
  const { rows: checks } = await client.query<{ id: string }>(
    `INSERT INTO checks (id, "workspaceId", "brandId", status, samples, "totalCaptures", "createdAt", "updatedAt", "finishedAt")
     SELECT gen_random_uuid(), $1, $2, 'completed', 1, 0, now() - interval '${PERIOD_DAYS} days', now(), now() FROM generate_series(1, 10) RETURNING id`,
    [workspace.id, brand.id],
  );
  const combos = prompts.length * providers.length;
  for (let from = 0; from < captures; from += BATCH) {
    const to = Math.min(captures, from + BATCH) - 1;
    await client.query(
      `WITH g AS (SELECT g, abs(hashint8(g::bigint)::bigint) AS h FROM generate_series($1::int, $2::int) g),
       ins AS (
         INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status,
           "attemptCount", "maxAttempts", model, "searchMode", "answerText", "costMicros", "latencyMs", "startedAt", "finishedAt", "analyzedAt", "createdAt", "updatedAt")
         SELECT gen_random_uuid(), $3::uuid, ($4::uuid[])[1 + (g / $7) % 10], $5::uuid, ($6::uuid[])[1 + (g % $7) / $9], ($8::uuid[])[1 + g % $9],
           (SELECT pc."connectionId" FROM provider_configs pc WHERE pc.id = ($8::uuid[])[1 + g % $9]), (g / ($7 * 10))::int, 'succeeded',
           1, 3, 'simulator', 'auto', 'Benchmark answer', 1000, 800, t - interval '1 second', t, t, t - interval '2 seconds', t
         -- Whole seconds within the period, which ends at the start of tomorrow (UTC).
         FROM (SELECT g, h, date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day' - make_interval(secs => (1 + h % (${PERIOD_DAYS} * 86400 - 1))::float8) AS t FROM g) x
         RETURNING id, "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId"
       ),
       picked AS (
         -- 0-4 names per answer (2 on average), skewed: name i is picked with probability ~ i^(-2/3).
         SELECT DISTINCT ON (ins.id, idx) ins.*, idx, abs(hashtext(ins.id::text || n)::bigint) AS ph
         FROM ins
         CROSS JOIN LATERAL generate_series(1, (abs(hashtext(ins.id::text)::bigint) % 5)::int) n
         CROSS JOIN LATERAL (SELECT floor(${NAMES} * power((abs(hashtext(ins.id::text || n)::bigint) % 100003) / 100003.0, 3))::int AS idx) i
       )
       INSERT INTO capture_candidates ("captureId", key, name, "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId")
       SELECT id, 'vendor ' || idx,
         CASE WHEN idx = 6 THEN (ARRAY['Vendor 6', 'VENDOR 6', 'Vendor  6', 'VEndor 6', 'VENdor 6', 'VENDor 6', 'VendoR 6', 'VEnDoR 6', 'VeNdOr 6', 'VENDOr 6', 'VendOR 6', 'VeNDOR 6'])[1 + ph % 12]
              WHEN idx % 10 = 3 AND ph % 4 = 0 THEN 'VENDOR ' || idx ELSE 'Vendor ' || idx END,
         "workspaceId", "brandId", "finishedAt", "providerConfigId", "promptId"
       FROM picked`,
      [from, to, workspace.id, checks.map((c) => c.id), brand.id, prompts.map((p) => p.id), combos, providers.map((p) => p.id), providers.length],
    );
    log(`discovery: captures ${(to + 1).toLocaleString("en-US")} of ${captures.toLocaleString("en-US")}`);
  }
}

export function discoveryMarkdown(result: DiscoveryScaleResult, header: string): string {
  return [
    header,
    "",
    `${result.captures.toLocaleString("en-US")} answers in the period, ${result.candidateRows.toLocaleString("en-US")} stored candidates, ${result.rollupRows.toLocaleString("en-US")} rollup_candidates rows, ${result.dayRollupRows.toLocaleString("en-US")} rollup_candidate_days rows, ${result.tagRollupRows.toLocaleString("en-US")} rollup_tag_candidates rows; ${result.runs} timed runs each.`,
    "",
    "| daily pass | answers (n) | names returned | median | p95 | goal |",
    "| --- | --- | --- | --- | --- | --- |",
    ...result.rows.map((r) => `| ${r.scope} | ${r.n.toLocaleString("en-US")} | ${r.candidates} | ${r.ms.median} ms | ${r.ms.p95} ms | ≤ ${DISCOVERY_GOAL_MS} ms |`),
  ].join("\n");
}
