import { describe, expect, it } from "vitest";
import { describeCadence, formatMinuteOfDay, nextRunAfter, parseTimeOfDay, type ScheduleTiming } from "./next-run";

const daily = (minuteOfDay: number): ScheduleTiming => ({ cadence: "daily", weekday: null, minuteOfDay });
const weekly = (weekday: number, minuteOfDay: number): ScheduleTiming => ({ cadence: "weekly", weekday, minuteOfDay });
const at = (iso: string) => new Date(iso);
const next = (schedule: ScheduleTiming, after: string) => nextRunAfter(schedule, at(after)).toISOString();

describe("nextRunAfter, daily", () => {
  it("runs later today when today's time has not come yet", () => {
    expect(next(daily(9 * 60), "2026-11-30T08:59:59.999Z")).toBe("2026-11-30T09:00:00.000Z");
  });

  it("is strictly after: exactly at the slot, the next run is tomorrow", () => {
    expect(next(daily(9 * 60), "2026-11-30T09:00:00.000Z")).toBe("2026-12-01T09:00:00.000Z");
  });

  it("runs tomorrow once today's time has passed, across month and year ends", () => {
    expect(next(daily(9 * 60), "2026-11-30T09:00:00.001Z")).toBe("2026-12-01T09:00:00.000Z");
    expect(next(daily(30), "2026-12-31T23:00:00.000Z")).toBe("2027-01-01T00:30:00.000Z");
  });

  it("handles the first and last minute of the day", () => {
    expect(next(daily(0), "2026-11-30T00:00:00.000Z")).toBe("2026-12-01T00:00:00.000Z");
    expect(next(daily(1439), "2026-11-30T23:58:30.000Z")).toBe("2026-11-30T23:59:00.000Z");
  });

  it("ignores the server's time zone and daylight saving: days are UTC days", () => {
    // 2026-03-29 is the night European clocks go forward; a UTC schedule does not notice.
    expect(next(daily(2 * 60 + 30), "2026-03-28T02:30:00.000Z")).toBe("2026-03-29T02:30:00.000Z");
    expect(next(daily(2 * 60 + 30), "2026-03-29T02:30:00.000Z")).toBe("2026-03-30T02:30:00.000Z");
  });

  it("after days of downtime, the next run is the first slot after now, not a missed one", () => {
    expect(next(daily(9 * 60), "2026-12-03T10:15:00.000Z")).toBe("2026-12-04T09:00:00.000Z");
  });
});

describe("nextRunAfter, weekly", () => {
  // 2026-11-30 is a Monday.
  it("runs later this week on the chosen weekday", () => {
    expect(next(weekly(3, 9 * 60), "2026-11-30T12:00:00.000Z")).toBe("2026-12-02T09:00:00.000Z");
  });

  it("runs later the same day when that day is the weekday and the time is still ahead", () => {
    expect(next(weekly(1, 9 * 60), "2026-11-30T08:00:00.000Z")).toBe("2026-11-30T09:00:00.000Z");
  });

  it("skips to next week once this week's slot has passed, or is exactly now", () => {
    expect(next(weekly(1, 9 * 60), "2026-11-30T09:00:00.000Z")).toBe("2026-12-07T09:00:00.000Z");
    expect(next(weekly(1, 9 * 60), "2026-11-30T17:00:00.000Z")).toBe("2026-12-07T09:00:00.000Z");
  });

  it("wraps from Saturday to Sunday and from Sunday to Saturday", () => {
    expect(next(weekly(0, 0), "2026-12-05T23:59:00.000Z")).toBe("2026-12-06T00:00:00.000Z");
    expect(next(weekly(6, 1439), "2026-12-06T00:00:00.000Z")).toBe("2026-12-12T23:59:00.000Z");
  });

  it("always lands on the chosen weekday and minute, within a week", () => {
    const start = at("2026-01-01T00:00:00.000Z").getTime();
    for (let i = 0; i < 500; i++) {
      const after = new Date(start + i * 7_919_777); // an odd stride through a year of instants
      for (const weekday of [0, 3, 6]) {
        const run = nextRunAfter(weekly(weekday, 17 * 60 + 45), after);
        expect(run.getUTCDay()).toBe(weekday);
        expect(run.getUTCHours() * 60 + run.getUTCMinutes()).toBe(17 * 60 + 45);
        expect(run.getTime()).toBeGreaterThan(after.getTime());
        expect(run.getTime() - after.getTime()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
      }
    }
  });

  it("refuses a weekly schedule without a weekday", () => {
    expect(() => nextRunAfter({ cadence: "weekly", weekday: null, minuteOfDay: 0 }, new Date())).toThrow(/weekday/);
  });
});

describe("cadence text", () => {
  it("says when the schedule runs, in UTC", () => {
    expect(describeCadence(daily(9 * 60))).toBe("Daily at 09:00 UTC");
    expect(describeCadence(weekly(1, 9 * 60))).toBe("Weekly on Monday at 09:00 UTC");
    expect(describeCadence(weekly(0, 23 * 60 + 5))).toBe("Weekly on Sunday at 23:05 UTC");
  });

  it("converts between minutes after midnight and HH:MM", () => {
    expect(formatMinuteOfDay(0)).toBe("00:00");
    expect(formatMinuteOfDay(1439)).toBe("23:59");
    expect(parseTimeOfDay("09:30")).toBe(570);
    expect(parseTimeOfDay("24:00")).toBeNull();
    expect(parseTimeOfDay("9:30")).toBeNull();
    expect(parseTimeOfDay("")).toBeNull();
  });
});
