import "server-only";
import { candidateKey } from "@/lib/analysis/brand-candidates";
import { promptScope, type AnalyticsFilter } from "@/lib/analytics/filter";
import { rollupSpans } from "@/lib/analytics/rollup-spans";
import { rollupScope, weekRollupScope, wholeWeeks } from "@/lib/analytics/rollups";
import { isoDay } from "@/lib/analytics/schemas";
import { wilson, type Estimate } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// Competitor discovery: which names that the workspace does not track yet its answers present as
// options (lib/analysis/brand-candidates.ts), and in how many answers.
//
// Each answer is read once, when it is analysed: its candidates are stored beside its mentions
// (capture_candidates, by beacon_succeed, a re-analysis batch or the demo history) and counted
// per day, provider, prompt, key and spelling in rollup_candidates, and without the prompt in
// rollup_candidate_days, and without the provider in rollup_candidate_day_totals, and that per
// tag in rollup_tag_candidates, the last three per week too, and per prompt without the provider
// per day and week and with it per week (beacon_rollup_captures), so this
// reads rollup rows, not answer texts: the counts and the spellings in one pass over the
// smallest rollups the filter allows, n from rollup_answers, and only for the names returned
// their first spellings (when a tie or more than SPELLINGS spellings make the order matter) and
// latest examples from capture_candidates' index. Measured by `npm run bench -- --discovery`
// (docs/benchmarks.md); reading the texts took 2.7 s per 20,000 short answers.
//
// The result is what reading every answer text with the brand's entities now would give
// (tests/integration/discovery.test.ts holds the two equal for random histories), with two
// differences in time:
// - Candidates are computed against the entities at analysis time. A brand edit raises the
//   analysis version and queues a re-analysis that rewrites them (lib/brands/reanalysis.ts); until
//   it has passed, a name tracked since is left out here only when it is tracked in exactly that
//   spelling (as "track it" adds it), which the raw reading never returns either, and a name
//   untracked since is not counted yet.
// - Rollups are the history and stay when raw rows go (docs/architecture.md): for answers whose
//   captures are gone the counts, shares and spellings stay; examples, and the first-seen order
//   that breaks a tie between spellings, come from the captures still kept (spellings never seen
//   in one come after, alphabetically).
//
// Ranges are whole UTC days, as the alerts' periods and every analytics filter are.

/** Examples per name: the latest captures that name it. */
const EXAMPLES = 3;
/** Spellings per name the name is chosen from: the first this many seen (in finish order). */
const SPELLINGS = 8;

export type DiscoveryInput = {
  workspaceId: string;
  brandId: string;
  from: Date;
  /** Exclusive. */
  to: Date;
  providerConfigIds?: string[];
  tags?: string[];
  /** The most frequent names returned (default 100). */
  limit?: number;
};

export type DiscoveredBrand = {
  /** The spelling most answers use. */
  name: string;
  /** Case- and accent-folded: the same name however it is written (candidateKey). */
  key: string;
  /** Answers that name it (once per answer). */
  answers: number;
  /** answers / n, with its 95 % Wilson interval. */
  share: Estimate;
  /** Up to three captures that name it, the latest first. */
  exampleCaptureIds: string[];
};

type Spelling = { name: string; answers: number; seen: number | null };

/**
 * Untracked names presented in the brand's succeeded answers finished in [from, to) (the scope of
 * the analytics, lib/analytics/filter.ts), most named first. `n` is the number of answers in scope.
 */
export async function discoverUntrackedBrands(input: DiscoveryInput): Promise<{ n: number; candidates: DiscoveredBrand[] }> {
  const { workspaceId, brandId } = input;
  const brand = await readDb().brand.findFirst({
    where: { id: brandId, workspaceId },
    select: { name: true, aliases: true, caseSensitiveAliases: true, competitors: { select: { name: true, aliases: true, caseSensitiveAliases: true } } },
  });
  if (!brand) throw new NotFoundError("That brand does not exist in this workspace.", { field: "brandId" });
  // Never a candidate (brandCandidates skips these keys), whenever the answer was analysed.
  const tracked = [brand, ...brand.competitors].flatMap((t) => [t.name, ...t.aliases, ...t.caseSensitiveAliases]).map(candidateKey);
  const filter: AnalyticsFilter = { workspaceId, brandId, from: input.from, to: input.to, providerConfigIds: input.providerConfigIds, tags: input.tags };
  const scope = rollupScope(filter);
  const limit = Math.max(1, input.limit ?? 100);

  const [answers] = await readDb().$queryRaw<{ n: bigint | null }[]>`SELECT sum(r.captures) AS n FROM rollup_answers r WHERE ${scope}`;
  const n = Number(answers?.n ?? 0);
  // One pass over the rollup rows: each spelling's answers, of the `limit` most named keys and
  // every key tied with the last of them (the order among equals is the key's, localeCompare as
  // the raw reading sorted, which SQL's collation is not).
  const spelled = await readDb().$queryRaw<{ key: string; name: string; answers: number }[]>`
    WITH s AS MATERIALIZED (
      SELECT r.key, r.name, sum(r.answers)::int AS answers FROM ${await candidateRows(filter)} r
      WHERE NOT (r.key = ANY(${tracked}::text[]))
      GROUP BY r.key, r.name HAVING sum(r.answers) > 0
    ),
    k AS MATERIALIZED (SELECT key, sum(answers)::int AS answers FROM s GROUP BY key)
    SELECT s.key, s.name, s.answers FROM s JOIN k USING (key)
    WHERE k.answers >= coalesce((SELECT answers FROM k ORDER BY answers DESC OFFSET ${limit - 1} LIMIT 1), 0)`;
  const spellings = new Map<string, Spelling[]>();
  for (const row of spelled) {
    const list = spellings.get(row.key) ?? [];
    list.push({ name: row.name, answers: row.answers, seen: null });
    spellings.set(row.key, list);
  }
  const total = (key: string) => spellings.get(key)!.reduce((sum, s) => sum + s.answers, 0);
  const keys = [...spellings.keys()].sort((a, b) => total(b) - total(a) || a.localeCompare(b)).slice(0, limit);
  if (!keys.length) return { n, candidates: [] };
  // The first-seen order of spellings matters only for a tie at the top or past SPELLINGS.
  const ordered = keys.filter((key) => {
    const list = spellings.get(key)!;
    const most = Math.max(...list.map((s) => s.answers));
    return list.length > SPELLINGS || list.filter((s) => s.answers === most).length > 1;
  });
  const raw = rawScope(filter);
  if (ordered.length) {
    // Each spelling's first answer, walking the key's index in finish order until one has it: a
    // few rows per spelling, where reading every answer of a popular key (15,000 at a million
    // answers) took 170 ms.
    const pairs = ordered.flatMap((key) => spellings.get(key)!.map((sp) => ({ key, name: sp.name })));
    const firsts = await readDb().$queryRaw<{ key: string; name: string; seen: bigint }[]>`
      WITH first AS (
        SELECT q.key, q.name, f."finishedAt", f."captureId"
        FROM unnest(${pairs.map((p) => p.key)}::text[], ${pairs.map((p) => p.name)}::text[]) AS q(key, name)
        CROSS JOIN LATERAL (
          SELECT k."finishedAt", k."captureId" FROM capture_candidates k
          WHERE ${raw} AND k.key = q.key AND k.name = q.name
          ORDER BY k."finishedAt", k."captureId" LIMIT 1
        ) f
      )
      SELECT key, name, row_number() OVER (PARTITION BY key ORDER BY "finishedAt", "captureId") AS seen FROM first`;
    for (const row of firsts) {
      const spelling = spellings.get(row.key)!.find((s) => s.name === row.name);
      if (spelling) spelling.seen = Number(row.seen);
    }
  }
  const examples = await readDb().$queryRaw<{ key: string; ids: string[] }[]>`
    SELECT q.key, array(
      SELECT k."captureId"::text FROM capture_candidates k
      WHERE ${raw} AND k.key = q.key
      ORDER BY k."finishedAt" DESC, k."captureId" DESC LIMIT ${EXAMPLES}
    ) AS ids
    FROM unnest(${keys}::text[]) AS q(key)`;
  const examplesOf = new Map(examples.map((e) => [e.key, e.ids]));

  const candidates = keys.map(
    (key): DiscoveredBrand => ({ name: mostUsed(spellings.get(key)!), key, answers: total(key), share: wilson(total(key), n), exampleCaptureIds: examplesOf.get(key) ?? [] }),
  );
  return { n, candidates };
}

/**
 * The candidates' rollup rows in scope, as a subquery `(key, name, answers)`, from the rollups with
 * the fewest rows the filter allows: with tags and no provider filter those per tag (1.3 s
 * grouping the tag's prompts' rows per provider at a million answers); without a tag filter the
 * prompt is not needed, and without a provider filter the provider neither (a quarter of the rows
 * again). Those three are kept per week too: the range's whole weeks are read there and the days
 * of its partial edge weeks from the daily ones (at a million answers every name is named every
 * day, so 30 days are 30 rows per spelling by day and 6 to 12 this way). A tag with a provider
 * filter, and tags that share a prompt, read the rows per prompt (promptRows).
 */
async function candidateRows(f: AnalyticsFilter): Promise<Prisma.Sql> {
  const providers = Boolean(f.providerConfigIds?.length);
  // The tags' prompts by id: from the tags' subquery (promptScope) the planner expected one prompt
  // and sorted the rows on disk (1.2 s for one tag and one provider at a million answers, half of
  // it sorting 116,000 rows); with the ids it hashes them (0.6 s at the same load).
  const perPrompt = async (tags: string[]) => {
    const prompts = await readDb().prompt.findMany({ where: { workspaceId: f.workspaceId, tags: { hasSome: tags } }, select: { id: true } });
    return promptRows({ ...f, tags: undefined }, prompts.map((p) => p.id));
  };
  if (f.tags?.length && providers) return perPrompt(f.tags);
  // The tag is a key column of the per-tag rollups, not a condition on the prompt.
  const unprompted = { ...f, tags: undefined };
  const tags = f.tags?.length ? Prisma.sql`AND r.tag = ANY(${f.tags}::text[])` : Prisma.empty;
  const [daily, weekly] = f.tags?.length
    ? ["rollup_tag_candidates", "rollup_tag_candidate_weeks"]
    : providers
      ? ["rollup_candidate_days", "rollup_candidate_weeks"]
      : ["rollup_candidate_day_totals", "rollup_candidate_week_totals"];
  const days = (range: AnalyticsFilter) => Prisma.sql`SELECT r.key, r.name, r.answers FROM ${Prisma.raw(daily)} r WHERE ${rollupScope(range)} ${tags}`;
  const whole = wholeWeeks(unprompted);
  const rows = whole
    ? Prisma.sql`SELECT r.key, r.name, r.answers FROM ${Prisma.raw(weekly)} r WHERE ${weekRollupScope(unprompted, whole.weeks)} ${tags}
      UNION ALL ${days(whole.head)}
      UNION ALL ${days(whole.tail)}`
    : days(unprompted);
  if ((f.tags?.length ?? 0) < 2) return Prisma.sql`(${rows})`;
  // Several tags add up per tag only while no prompt carries two of them (an answer counts once);
  // otherwise the rows per prompt. Decided in the statement, on the snapshot it reads the rows in
  // (a re-tagging moves the per-tag rows in its own transaction). Archived prompts count: their
  // answers are in the rollups.
  const overlap = Prisma.sql`EXISTS (
    SELECT 1 FROM prompts p WHERE p."workspaceId" = ${f.workspaceId}::uuid
      AND (SELECT count(DISTINCT t) FROM unnest(p.tags) t WHERE t = ANY(${f.tags}::text[])) > 1)`;
  return Prisma.sql`(
    SELECT * FROM (${rows}) r WHERE NOT ${overlap}
    UNION ALL SELECT * FROM ${await perPrompt(f.tags!)} r WHERE ${overlap})`;
}

/**
 * The candidates' rows of `prompts` (ids) in the unprompted scope `f`, as a subquery `(key, name,
 * answers)`: the range as signed ISO weeks and days (rollupSpans), the weeks from the rollups per
 * prompt (with the provider when filtered on it), the days from those per prompt and day
 * (rollup_candidates with the provider). 30 days per prompt are 5 weekly rows per spelling and a
 * few daily ones instead of 30, per provider four times that. The prompt is a key of all of them,
 * so a re-tagging moves none of their rows.
 */
function promptRows(f: AnalyticsFilter, prompts: string[]): Prisma.Sql {
  const providers = Boolean(f.providerConfigIds?.length);
  const [daily, weekly] = providers
    ? ["rollup_candidates", "rollup_candidate_prompt_provider_weeks"]
    : ["rollup_candidate_prompt_days", "rollup_candidate_prompt_weeks"];
  const only = Prisma.sql`AND r."promptId" = ANY(${prompts}::uuid[])`;
  const parts = rollupSpans(f.from, f.to, { coarsest: "week" }).map((span) => {
    const range = { ...f, from: span.from, to: span.to };
    const [table, scope] =
      span.level === "week" ? [weekly, weekRollupScope(range, { first: isoDay(span.from), end: isoDay(span.to) })] : [daily, rollupScope(range)];
    return Prisma.sql`SELECT r.key, r.name, ${span.sign} * r.answers AS answers FROM ${Prisma.raw(table)} r WHERE ${scope} ${only}`;
  });
  // An empty range has no spans: its (empty) day rows.
  return Prisma.sql`(${parts.length ? Prisma.join(parts, " UNION ALL ") : Prisma.sql`SELECT r.key, r.name, r.answers FROM ${Prisma.raw(daily)} r WHERE ${rollupScope(f)} ${only}`})`;
}

/** The capture_candidates rows (`k`) of the captures in scope: captureScope on the copied columns. */
function rawScope(f: AnalyticsFilter): Prisma.Sql {
  const providers = f.providerConfigIds?.length ? Prisma.sql`AND k."providerConfigId" = ANY(${f.providerConfigIds}::uuid[])` : Prisma.empty;
  return Prisma.sql`k."workspaceId" = ${f.workspaceId}::uuid AND k."brandId" = ${f.brandId}::uuid
    AND k."finishedAt" >= ${f.from}::timestamp AND k."finishedAt" < ${f.to}::timestamp
    ${providers} ${promptScope(f, Prisma.sql`k."promptId"`)}`;
}

/**
 * The spelling written most often among the first SPELLINGS seen, the first seen among equals (as
 * the raw reading counted them); spellings with no kept capture come after, alphabetically.
 */
function mostUsed(spellings: Spelling[]): string {
  const inOrder = [...spellings].sort((a, b) => (a.seen ?? Infinity) - (b.seen ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, SPELLINGS);
  let best = inOrder[0]!;
  for (const s of inOrder) if (s.answers > best.answers) best = s;
  return best.name;
}
