import "server-only";
import { brandCandidates, candidateKey } from "@/lib/analysis/brand-candidates";
import { captureScope, type AnalyticsFilter } from "@/lib/analytics/filter";
import { wilson, type Estimate } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// Competitor discovery: which names that the workspace does not track yet its answers present as
// options (lib/analysis/brand-candidates.ts), and in how many answers. Read from the raw answers,
// not from stored rows: nothing about untracked names is stored, and the rules of what counts as
// a candidate can change without a migration.
//
// Cost: every answer in the window is read once, in pages of PAGE answers ordered by
// (finishedAt, id), which walks the (workspaceId, brandId, finishedAt) index, so memory holds one
// page of text plus one counter per distinct name (bounded by MAX_NAMES) whatever the window's
// size. Time is linear in the answers' text: 20,000 simulated answers (420 characters each) took
// 2.7 s on this 2-core machine, about 1 s of it the candidate scan (DISCOVERY_BENCH=20000 npx
// vitest run --project integration tests/integration/discovery.test.ts prints the figure); real
// answers run 2-8 kB, so expect tens of seconds for a window of that size. Meant for the alert
// evaluation's periodic job, not for a request that waits on it.

const PAGE = 500;
/** Distinct names counted at most: past it, names never seen before are not admitted (the ones already counted keep counting). */
export const MAX_NAMES = 50_000;
const EXAMPLES = 3;
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

type Tally = { answers: number; spellings: Map<string, number>; examples: string[] };
type Row = { id: string; finishedAt: Date; answerText: string | null; language: string | null };

/**
 * Untracked names presented in the brand's succeeded answers finished in [from, to) (the scope of
 * the analytics, lib/analytics/filter.ts), most named first. `n` is the number of answers read.
 */
export async function discoverUntrackedBrands(input: DiscoveryInput): Promise<{ n: number; candidates: DiscoveredBrand[] }> {
  const { workspaceId, brandId } = input;
  const brand = await readDb().brand.findFirst({
    where: { id: brandId, workspaceId },
    select: { name: true, aliases: true, caseSensitiveAliases: true, domains: true, competitors: { select: { name: true, aliases: true, caseSensitiveAliases: true, domains: true } } },
  });
  if (!brand) throw new NotFoundError("That brand does not exist in this workspace.", { field: "brandId" });
  const tracked = [brand, ...brand.competitors];
  const filter: AnalyticsFilter = { workspaceId, brandId, from: input.from, to: input.to, providerConfigIds: input.providerConfigIds, tags: input.tags };

  const tallies = new Map<string, Tally>();
  let n = 0;
  for (let after: { finishedAt: Date; id: string } | null = null; ; ) {
    const keyset: Prisma.Sql = after ? Prisma.sql`AND (c."finishedAt", c.id) > (${after.finishedAt}::timestamp, ${after.id}::uuid)` : Prisma.empty;
    const rows: Row[] = await readDb().$queryRaw<Row[]>`
      SELECT c.id::text AS id, c."finishedAt", c."answerText", p.language
      FROM captures c JOIN prompts p ON p.id = c."promptId" AND p."workspaceId" = c."workspaceId"
      WHERE ${captureScope(filter)} ${keyset}
      ORDER BY c."finishedAt", c.id
      LIMIT ${PAGE}`;
    for (const row of rows) {
      n++;
      for (const name of brandCandidates(row.answerText ?? "", tracked, row.language)) count(tallies, row.id, name);
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1]!;
    after = { finishedAt: last.finishedAt, id: last.id };
  }

  const candidates = [...tallies.entries()]
    .map(([key, t]): DiscoveredBrand => ({ name: mostUsed(t.spellings), key, answers: t.answers, share: wilson(t.answers, n), exampleCaptureIds: [...t.examples].reverse() }))
    .sort((a, b) => b.answers - a.answers || a.key.localeCompare(b.key))
    .slice(0, input.limit ?? 100);
  return { n, candidates };
}

/** brandCandidates returns each name once per answer, so this counts answers. */
function count(tallies: Map<string, Tally>, captureId: string, name: string) {
  const key = candidateKey(name);
  let tally = tallies.get(key);
  if (!tally) {
    if (tallies.size >= MAX_NAMES) return;
    tally = { answers: 0, spellings: new Map(), examples: [] };
    tallies.set(key, tally);
  }
  tally.answers++;
  if (tally.spellings.has(name) || tally.spellings.size < SPELLINGS) tally.spellings.set(name, (tally.spellings.get(name) ?? 0) + 1);
  tally.examples.push(captureId);
  if (tally.examples.length > EXAMPLES) tally.examples.shift();
}

/** The spelling written most often; the first seen among equals. */
function mostUsed(spellings: Map<string, number>): string {
  let best = "";
  let most = 0;
  for (const [spelling, times] of spellings) if (times > most) [best, most] = [spelling, times];
  return best;
}
