// The SQL side of states.ts: a function per status list that SQL needs, returning the list as a
// constant, so that no trigger or function types the list again. The files are generated into
// prisma/sql/functions by `npm run sql:generate` (scripts/generate-sql.ts), and
// status-sql.test.ts fails while one is out of date with states.ts. IMMUTABLE SQL functions
// returning a constant are folded by the planner, so `status = ANY(beacon_unfinished_statuses())`
// still uses an index on status.
import { TRANSITIONS, UNFINISHED_STATUSES, type CaptureStatus, type TransitionName } from "@/lib/captures/states";

export const STATUS_SET_FUNCTIONS = {
  /** The captures the metric gauges count (trigger captures_metrics_deleted). */
  beacon_unfinished_statuses: { list: UNFINISHED_STATUSES, source: "UNFINISHED_STATUSES", meaning: "not finished: waiting or running" },
} as const satisfies Record<string, { list: readonly CaptureStatus[]; source: string; meaning: string }>;
export type StatusSetFunction = keyof typeof STATUS_SET_FUNCTIONS;

/**
 * The guard of every transition a database function runs (`beacon_succeed` today; the claim is
 * given its list as a parameter), so a transition's `from` statuses are written in TRANSITIONS
 * only, whichever side runs it. Unknown names give NULL, which no status equals.
 */
export const TRANSITION_FROM_FUNCTION = "beacon_transition_from";

/** The generated files: the status-list functions and `beacon_transition_from`. */
export const GENERATED_STATUS_FILES = [...(Object.keys(STATUS_SET_FUNCTIONS) as StatusSetFunction[]), TRANSITION_FROM_FUNCTION] as const;
export type GeneratedStatusFile = (typeof GENERATED_STATUS_FILES)[number];

export function generatedStatusSql(name: GeneratedStatusFile): string {
  return name === TRANSITION_FROM_FUNCTION ? transitionFromSql() : statusSetSql(name);
}

/** The file prisma/sql/functions/<name>.sql, as pg_get_functiondef prints the function. */
export function statusSetSql(name: StatusSetFunction): string {
  const { list, source, meaning } = STATUS_SET_FUNCTIONS[name];
  return `-- Generated from ${source} in lib/captures/states.ts by \`npm run sql:generate\`; do not edit.
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

function transitionFromSql(): string {
  const arms = (Object.keys(TRANSITIONS) as TransitionName[])
    .map((name) => `    WHEN '${name}' THEN '{${TRANSITIONS[name].from.join(",")}}'::"CaptureStatus"[]`)
    .join("\n");
  return `-- Generated from TRANSITIONS in lib/captures/states.ts by \`npm run sql:generate\`; do not edit.
-- The statuses a transition moves a capture from (its guard), for transitions run in SQL.
CREATE OR REPLACE FUNCTION public.${TRANSITION_FROM_FUNCTION}(transition text)
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE transition
${arms}
  END
$function$;
`;
}
