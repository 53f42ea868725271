import "server-only";
import { num, type AnalyticsFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { meanInterval, wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";

type Row = {
  promptId: string;
  text: string;
  tags: string[];
  n: number;
  mentioned: number;
  pos_sum: number;
  pos_sumsq: number;
  rival_id: string | null;
  rival_name: string | null;
  lost: number | null;
  lost_instead: number | null;
};

/**
 * Per prompt: how often the brand appears, where, and "where we lose to whom": the competitor
 * that most often appears ahead of the brand or in an answer that leaves the brand out (ties go
 * to the name that sorts first).
 */
export async function promptPerformance(f: AnalyticsFilter) {
  const rows = await readDb().$queryRaw<Row[]>`
    WITH per_prompt AS (
      SELECT r."promptId", sum(r.answers)::int AS n, sum(r.mentioned)::int AS mentioned,
        sum(r."positionSum")::float8 AS pos_sum, sum(r."positionSumSq")::float8 AS pos_sumsq
      FROM rollup_answers r
      WHERE ${rollupScope(f)}
      GROUP BY 1
      HAVING sum(r.answers) > 0
    ),
    losses AS (
      SELECT r."promptId", CASE WHEN r.entity LIKE 'name:%' THEN substr(r.entity, 6) ELSE r.entity END AS rival, bool_or(r.entity LIKE 'name:%') AS untracked, max(r.name) AS mention_name,
        sum(r.ahead)::int AS lost, sum(r.instead)::int AS lost_instead
      FROM rollup_mentions r
      WHERE ${rollupScope(f)} AND r.entity <> 'brand'
      GROUP BY 1, 2
      HAVING sum(r.ahead) > 0
    ),
    top_loss AS (
      SELECT DISTINCT ON (l."promptId") l."promptId", l.rival, coalesce(co.name, l.mention_name) AS name, l.lost, l.lost_instead
      FROM losses l LEFT JOIN competitors co ON co.id::text = l.rival
      -- Not a competitor removed since (its rows wait for its brand's re-analysis).
      WHERE l.untracked OR co.id IS NOT NULL
      ORDER BY l."promptId", l.lost DESC, coalesce(co.name, l.mention_name)
    )
    SELECT pp."promptId", p.text, p.tags, pp.n, pp.mentioned, pp.pos_sum, pp.pos_sumsq,
      t.rival AS rival_id, t.name AS rival_name, t.lost, t.lost_instead
    FROM per_prompt pp
    JOIN prompts p ON p.id = pp."promptId"
    LEFT JOIN top_loss t ON t."promptId" = pp."promptId"
    ORDER BY pp.n DESC, p.text`;
  return rows.map((r) => ({
    promptId: r.promptId,
    text: r.text,
    tags: r.tags,
    n: num(r.n),
    visibility: wilson(num(r.mentioned), num(r.n)),
    averagePosition: meanInterval(num(r.pos_sum), num(r.pos_sumsq), num(r.mentioned)),
    losesTo: r.rival_name
      ? { key: r.rival_id!, name: r.rival_name, captures: num(r.lost), instead: num(r.lost_instead), ahead: num(r.lost) - num(r.lost_instead) }
      : null,
  }));
}

export type PromptPerformance = Awaited<ReturnType<typeof promptPerformance>>;
