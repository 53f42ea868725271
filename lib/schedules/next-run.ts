// When a schedule runs. Pure (no database, no clock of its own), so the web app, the worker and
// the tests agree on the same arithmetic. All times are UTC: a schedule has no time zone, and
// UTC days have no daylight-saving gaps, so "the same minute tomorrow" is always 24 h later.

export type ScheduleTiming = {
  cadence: "daily" | "weekly";
  /** 0 = Sunday … 6 = Saturday; weekly schedules only. */
  weekday: number | null;
  /** Minutes after midnight UTC, 0 to 1439. */
  minuteOfDay: number;
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The first time the schedule is due strictly after `after`. */
export function nextRunAfter(schedule: ScheduleTiming, after: Date): Date {
  const midnight = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  if (schedule.cadence === "daily") {
    const today = midnight + schedule.minuteOfDay * MINUTE;
    return new Date(today > after.getTime() ? today : today + DAY);
  }
  if (schedule.weekday === null) throw new Error("A weekly schedule needs a weekday");
  const daysAhead = (schedule.weekday - after.getUTCDay() + 7) % 7;
  const candidate = midnight + daysAhead * DAY + schedule.minuteOfDay * MINUTE;
  return new Date(candidate > after.getTime() ? candidate : candidate + 7 * DAY);
}

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** 540 -> "09:00". */
export function formatMinuteOfDay(minuteOfDay: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}`;
}

/** "09:00" -> 540; null for anything that is not a time of day. */
export function parseTimeOfDay(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** "Daily at 09:00 UTC" or "Weekly on Monday at 09:00 UTC". */
export function describeCadence(schedule: ScheduleTiming): string {
  const at = `at ${formatMinuteOfDay(schedule.minuteOfDay)} UTC`;
  if (schedule.cadence === "daily") return `Daily ${at}`;
  return `Weekly on ${WEEKDAYS[schedule.weekday ?? 0]} ${at}`;
}
