// Competitor discovery as it was before its candidates were stored (issue 20): every answer text
// of the period read again, its candidates found against the brand's entities now. Kept here,
// unchanged but for its name and its cap of 50,000 distinct names (no test comes near it), as the oracle tests/integration/discovery.test.ts holds the
// rollup-based discoverUntrackedBrands (lib/alerts/discovery.ts) to, on the same random data.
import { brandCandidates, candidateKey } from "@/lib/analysis/brand-candidates";
import type { DiscoveredBrand, DiscoveryInput } from "@/lib/alerts/discovery";
import { captureScope, type AnalyticsFilter } from "@/lib/analytics/filter";
import { wilson } from "@/lib/analytics/stats";
import { db } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

const PAGE = 500;
const EXAMPLES = 3;
const SPELLINGS = 8;

type Tally = { answers: number; spellings: Map<string, number>; examples: string[] };
type Row = { id: string; finishedAt: Date; answerText: string | null; language: string | null };

export async function rawDiscovery(input: DiscoveryInput): Promise<{ n: number; candidates: DiscoveredBrand[] }> {
  const { workspaceId, brandId } = input;
  const brand = await db().brand.findFirst({
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
    const rows: Row[] = await db().$queryRaw<Row[]>`
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

function count(tallies: Map<string, Tally>, captureId: string, name: string) {
  const key = candidateKey(name);
  let tally = tallies.get(key);
  if (!tally) {
    tally = { answers: 0, spellings: new Map(), examples: [] };
    tallies.set(key, tally);
  }
  tally.answers++;
  if (tally.spellings.has(name) || tally.spellings.size < SPELLINGS) tally.spellings.set(name, (tally.spellings.get(name) ?? 0) + 1);
  tally.examples.push(captureId);
  if (tally.examples.length > EXAMPLES) tally.examples.shift();
}

function mostUsed(spellings: Map<string, number>): string {
  let best = "";
  let most = 0;
  for (const [spelling, times] of spellings) if (times > most) [best, most] = [spelling, times];
  return best;
}
