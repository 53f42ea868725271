// The SQL side of states.ts: a function per status list that SQL needs, returning the list as a
// constant, so that no trigger or function types the list again. The files are generated into
// prisma/sql/functions by `npm run sql:statuses` (scripts/generate-status-sql.ts), and
// status-sql.test.ts fails while one is out of date with states.ts. IMMUTABLE SQL functions
// returning a constant are folded by the planner, so `status = ANY(beacon_unfinished_statuses())`
// still uses an index on status.
import { UNFINISHED_STATUSES, type CaptureStatus } from "@/lib/captures/states";

export const STATUS_SET_FUNCTIONS = {
  /** The captures the metric gauges count (trigger captures_metrics_deleted). */
  beacon_unfinished_statuses: { list: UNFINISHED_STATUSES, source: "UNFINISHED_STATUSES", meaning: "not finished: waiting or running" },
} as const satisfies Record<string, { list: readonly CaptureStatus[]; source: string; meaning: string }>;
export type StatusSetFunction = keyof typeof STATUS_SET_FUNCTIONS;

/** The file prisma/sql/functions/<name>.sql, as pg_get_functiondef prints the function. */
export function statusSetSql(name: StatusSetFunction): string {
  const { list, source, meaning } = STATUS_SET_FUNCTIONS[name];
  return `-- Generated from ${source} in lib/captures/states.ts by \`npm run sql:statuses\`; do not edit.
-- The capture statuses ${meaning}.
CREATE OR REPLACE FUNCTION public.${name}()
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT '{${list.join(",")}}'::"CaptureStatus"[]
$function$;
`;
}
