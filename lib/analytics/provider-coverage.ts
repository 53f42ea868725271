import "server-only";
import { num, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { readDb } from "@/lib/db/prisma";

/**
 * Answers per provider of the workspace in the filter's period, brand, tags and markets, whatever
 * providers the filter picks: the filter bar marks the providers with none ("no data"), so
 * choosing one does not look like an empty chart's fault. One grouped read of the daily rollups.
 */
export async function providerCoverage({ filter: f, providers }: ResolvedFilter) {
  const rows = await readDb().$queryRaw<{ provider: string; answers: number }[]>`
    SELECT r."providerConfigId"::text AS provider, sum(r.answers)::int AS answers
    FROM rollup_answers r
    WHERE ${rollupScope({ ...f, providerConfigIds: undefined })}
    GROUP BY 1`;
  const answers = new Map(rows.map((r) => [r.provider, num(r.answers)]));
  return { providers: providers.map((p) => ({ id: p.id, name: p.name, answers: answers.get(p.id) ?? 0 })) };
}

export type ProviderCoverage = Awaited<ReturnType<typeof providerCoverage>>;
