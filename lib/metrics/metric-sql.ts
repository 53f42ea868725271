// The metric counters' SQL of the same shape, generated into prisma/sql/functions by
// `npm run sql:generate` (scripts/generate-sql.ts); metric-sql.test.ts fails while a file differs
// from what this writes. They run in triggers on every attempt and capture, so they stay static
// SQL with one upsert each (two trigger functions merged into one would need TG_OP branches and a
// migration to drop the other; generating keeps both as they were).

/**
 * A ring of time slots per shard (counters.ts reads a window of it): a slot that holds an older
 * bucket starts again from this one; a bucket older than its slot's, or outside [now - back,
 * now + ahead], is dropped.
 */
type Ring = { comment: string; table: string; seconds: number; slots: number; back: string; ahead: string; measures: [column: string, param: string][] };

export const METRIC_RINGS = {
  beacon_metric_add_hour: {
    comment: "-- The same for an hour: the ring holds 32, a window reads the last 25.",
    table: "metric_accepted_hours",
    seconds: 3600,
    slots: 32,
    back: "26 hours",
    ahead: "1 hour",
    measures: [
      ["accepted", "d_accepted"],
      ["costMicros", "d_cost_micros"],
    ],
  },
  beacon_metric_add_minute: {
    comment: `-- Adds to the ring slot of a minute (timestamps are UTC, as every timestamp column here). A slot
-- that holds an older minute starts again from this one; a minute older than the one its slot
-- holds left every window long ago and is dropped, and so is anything outside [now - 2 h,
-- now + 5 min] (old history, clocks far ahead), so a slot never holds a minute a scrape reads
-- while a newer one waits.`,
    table: "metric_attempt_minutes",
    seconds: 60,
    slots: 128,
    back: "2 hours",
    ahead: "5 minutes",
    measures: [
      ["attempts", "d_attempts"],
      ["retries", "d_retries"],
    ],
  },
} satisfies Record<string, Ring>;

/**
 * The arguments of beacon_metric_add_attempts after the provider, in order: what an attempts row
 * counts for (`row` is NEW or OLD).
 */
const ATTEMPT_COUNTS: ((row: string) => string)[] = [
  (row) => `${row}.outcome IS NULL`,
  ...["succeeded", "failed", "unknown", "cancelled"].map((outcome) => (row: string) => `${row}.outcome IS NOT DISTINCT FROM '${outcome}'`),
  (row) => `${row}.reason IS NOT DISTINCT FROM 'lease_expired'`,
];

/** Attempt triggers: a started attempt counts as it is; a closed one moves from what it was to what it is. */
const ATTEMPT_TRIGGERS = {
  beacon_metrics_attempt_started: {
    comment: "-- Attempts: started (by the claim; the demo seed inserts finished ones).",
    delta: (count: (row: string) => string) => `(${count("NEW")})::int`,
    after: `\n  PERFORM beacon_metric_add_minute(date_trunc('minute', NEW."startedAt"), 1, (NEW.number > 1)::int);`,
  },
  beacon_metrics_attempt_closed: {
    comment: "-- Attempts: the outcome (or the reason) was set.",
    delta: (count: (row: string) => string) => `(${count("NEW")})::int - (${count("OLD")})::int`,
    after: "",
  },
};

export const GENERATED_METRIC_FILES = [
  ...(Object.keys(METRIC_RINGS) as (keyof typeof METRIC_RINGS)[]),
  ...(Object.keys(ATTEMPT_TRIGGERS) as (keyof typeof ATTEMPT_TRIGGERS)[]),
];
export type GeneratedMetricFile = (typeof GENERATED_METRIC_FILES)[number];

const HEADER = "-- Generated from lib/metrics/metric-sql.ts by `npm run sql:generate`; do not edit.";

export function generatedMetricSql(name: GeneratedMetricFile): string {
  return name in METRIC_RINGS ? ringSql(name as keyof typeof METRIC_RINGS) : attemptTriggerSql(name as keyof typeof ATTEMPT_TRIGGERS);
}

function ringSql(name: keyof typeof METRIC_RINGS): string {
  const { comment, table, seconds, slots, back, ahead, measures }: Ring = METRIC_RINGS[name];
  const params = measures.map(([, param]) => `${param} bigint`).join(", ");
  const columns = measures.map(([column]) => `"${column}"`).join(", ");
  const restart = measures.map(
    ([column]) => `    "${column}" = CASE WHEN w."startsAt" = EXCLUDED."startsAt" THEN w."${column}" + EXCLUDED."${column}" ELSE EXCLUDED."${column}" END,`,
  );
  return `${HEADER}
${comment}
CREATE OR REPLACE FUNCTION public.${name}(bucket timestamp without time zone, ${params})
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO "${table}" AS w ("slot", "shard", "startsAt", ${columns})
  SELECT (floor(extract(epoch FROM bucket) / ${seconds})::bigint % ${slots})::smallint, beacon_metric_shard(), bucket, ${measures.map(([, p]) => p).join(", ")}
  WHERE bucket BETWEEN (now() AT TIME ZONE 'UTC') - interval '${back}' AND (now() AT TIME ZONE 'UTC') + interval '${ahead}'
  ON CONFLICT ("slot", "shard") DO UPDATE SET
${restart.join("\n")}
    "startsAt" = EXCLUDED."startsAt"
  WHERE w."startsAt" <= EXCLUDED."startsAt"
$function$;
`;
}

function attemptTriggerSql(name: keyof typeof ATTEMPT_TRIGGERS): string {
  const { comment, delta, after } = ATTEMPT_TRIGGERS[name];
  return `${HEADER}
${comment}
CREATE OR REPLACE FUNCTION public.${name}()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  provider text := beacon_metric_provider_of(NEW."captureId");
BEGIN
  IF provider IS NOT NULL THEN
    PERFORM beacon_metric_add_attempts(
      provider,
${ATTEMPT_COUNTS.map((count) => `      ${delta(count)}`).join(",\n")});
  END IF;${after}
  RETURN NULL;
END
$function$;
`;
}
