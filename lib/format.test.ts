import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ago,
  formatAge,
  formatBucket,
  formatChange,
  formatAxisCount,
  formatCount,
  formatDay,
  formatDollarsAxis,
  formatDollarsExact,
  formatDuration,
  formatInterval,
  formatMicros,
  formatNumber,
  formatPct,
  formatPosition,
  formatPValue,
  formatSignedNumber,
  formatSignedPoints,
  formatTimeLeft,
  formatUtc,
  formatUtcDateTime,
  formatWhen,
  MISSING,
  percentText,
  relativeTo,
  sampleNote,
} from "./format";

// Micro-dollars as the database holds them: bigint, up to far beyond any real budget.
const micros = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });

/** "$1.23" / "-$0.0012" back to dollars. */
const readDollars = (text: string) => {
  const match = /^(-?)\$(\d+\.\d+)$/.exec(text);
  if (!match) throw new Error(`not a dollar amount: ${text}`);
  return (match[1] ? -1 : 1) * Number(match[2]);
};

describe("formatMicros", () => {
  it("shows cents, and four decimals below a cent", () => {
    expect(formatMicros(1_234_567)).toBe("$1.23");
    expect(formatMicros(1_234)).toBe("$0.0012");
    expect(formatMicros(0)).toBe("$0.00");
    expect(formatMicros(25_000_000n)).toBe("$25.00");
    expect(formatMicros(3_100, { precise: true })).toBe("$0.0031");
    expect(formatMicros(1_234_567, { precise: true })).toBe("$1.2346");
  });

  it("puts the sign before the dollar sign", () => {
    expect(formatMicros(-5_000_000)).toBe("-$5.00");
    expect(formatMicros(-1_234)).toBe("-$0.0012");
  });

  it("reads back within its rounding, for any amount, number or bigint", () => {
    fc.assert(
      fc.property(micros, fc.boolean(), (m, precise) => {
        const text = formatMicros(m, { precise });
        const dollars = Number(m) / 1_000_000;
        const places = text.split(".")[1]!.length;
        expect(places === 2 || places === 4).toBe(true);
        expect(Math.abs(readDollars(text) - dollars)).toBeLessThanOrEqual(0.5 * 10 ** -places + Math.abs(dollars) * 1e-15);
        expect(formatMicros(Number(m), { precise })).toBe(text);
      }),
    );
  });

  it("never writes NaN or Infinity", () => {
    fc.assert(fc.property(fc.double(), (m) => {
      expect(formatMicros(m)).not.toMatch(/NaN|Infinity/);
    }));
    expect(formatMicros(NaN)).toBe(MISSING);
  });
});

describe("formatDollarsExact", () => {
  it("writes six decimals without a float", () => {
    expect(formatDollarsExact(21_250)).toBe("0.021250");
    expect(formatDollarsExact(0n)).toBe("0.000000");
    expect(formatDollarsExact(-1)).toBe("-0.000001");
    expect(formatDollarsExact(9_007_199_254_740_993n)).toBe("9007199254.740993");
    expect(formatDollarsExact(NaN)).toBe("");
  });

  it("reads back exactly, and agrees with toFixed(6) where a double is exact", () => {
    fc.assert(
      fc.property(micros, (m) => {
        const text = formatDollarsExact(m);
        const [whole, fraction] = text.replace("-", "").split(".");
        expect(fraction).toHaveLength(6);
        expect((text.startsWith("-") ? -1n : 1n) * (BigInt(whole!) * 1_000_000n + BigInt(fraction!))).toBe(m);
        expect(text).toBe((Number(m) / 1_000_000).toFixed(6));
      }),
    );
  });
});

describe("numbers and shares", () => {
  it("writes counts, sample notes and plain numbers", () => {
    expect(formatCount(1_392)).toBe("1,392");
    // An axis's ticks fit its gutter (a 15,652 was cut to "5652" there).
    expect([0, 850, 3_400, 15_652, 1_234_567].map(formatAxisCount)).toEqual(["0", "850", "3.4K", "15.7K", "1.2M"]);
    expect(sampleNote(1_392)).toBe("n = 1,392 answers");
    expect(sampleNote(1)).toBe("n = 1 answer");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(0.0123)).toBe("0.0123");
    expect(formatNumber(1 / 3)).toBe("0.3333");
    expect(formatNumber(1_534)).toBe("1534");
    expect(formatPosition(1.333)).toBe("1.33");
    expect(formatPosition(1.25, 1)).toBe("1.3");
    expect(formatPosition(null)).toBe(MISSING);
    expect(formatPValue(0.4741)).toBe("p = 0.474");
    expect(formatPValue(0.0001)).toBe("p < 0.001");
    expect(formatDollarsAxis(0.25)).toBe("$0.25");
    expect(formatDollarsAxis(12.4)).toBe("$12");
  });

  it("writes shares for dashboards and for sentences", () => {
    expect(formatPct(0.77)).toBe("77%");
    expect(formatPct(0.053)).toBe("5.3%");
    expect(formatPct(0)).toBe("0%");
    expect(formatPct(null)).toBe(MISSING);
    expect(percentText(0.4)).toBe("40 %");
    expect(percentText(0.755)).toBe("75.5 %");
    expect(percentText(null)).toBe(MISSING);
    expect(formatInterval(0.4, 0.891, "share")).toBe("40–89%");
    expect(formatInterval(1.23, 2.345, "number")).toBe("1.2–2.3");
    expect(formatInterval(null, 1, "number")).toBeNull();
  });

  it("signs every change, with a true minus", () => {
    expect(formatChange(0.035, "share")).toBe("+3.5 pts");
    expect(formatChange(-0.12, "number")).toBe("−0.12");
    expect(formatChange(0, "share")).toBe("±0.0 pts");
    expect(formatSignedPoints(0.05)).toBe("+5");
    expect(formatSignedPoints(-0.125)).toBe("−12.5");
    expect(formatSignedPoints(0)).toBe("+0");
    expect(formatSignedNumber(-0.5)).toBe("−0.50");
    expect(formatSignedNumber(0.25)).toBe("+0.25");
  });

  it("never writes NaN for a finite share, and a percentage reads back within its rounding", () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (share) => {
        const compact = formatPct(share);
        const sentence = percentText(share);
        for (const text of [compact, sentence, formatSignedPoints(share), formatChange(share, "share")]) expect(text).not.toMatch(/NaN|Infinity/);
        expect(Math.abs(Number(sentence.replace(" %", "")) - share * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(Number(compact.replace("%", "")) - share * 100)).toBeLessThanOrEqual(0.5 + 1e-9);
      }),
    );
  });
});

describe("durations and times", () => {
  it("writes durations and ages", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(2_500)).toBe("2.5 s");
    expect(formatDuration(185_000)).toBe("3 min 5 s");
    expect(formatDuration(null)).toBe(MISSING);
    expect(formatAge(45_900)).toBe("45 s");
    expect(formatAge(12 * 60_000)).toBe("12 min");
    expect(formatAge(185 * 60_000)).toBe("3 h 5 min");
    expect(formatAge(4 * 86_400_000)).toBe("4 d");
    expect(formatAge(-5_000)).toBe("0 s");
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(ago("2026-12-01T11:59:57Z", now)).toBe("3 s ago");
    expect(relativeTo("2026-12-01T12:00:40Z", now)).toBe("in 40 s");
    expect(formatWhen("2026-12-01T11:55:00Z", now)).toBe("5 minutes ago");
    expect(formatWhen("2026-11-30T12:00:00Z", now)).toBe("yesterday");
  });

  it("writes an estimate's time left coarsely, never below what is left", () => {
    expect(formatTimeLeft(59_999)).toBe("less than a minute left");
    expect(formatTimeLeft(60_001)).toBe("about 2 min left");
    expect(formatTimeLeft(25 * 60_000)).toBe("about 25 min left");
    expect(formatTimeLeft(61 * 60_000)).toBe("about 1 h 10 min left");
    expect(formatTimeLeft(130 * 60_000)).toBe("about 2 h 10 min left");
    expect(formatTimeLeft(70 * 3_600_000)).toBe("about 3 d left");
    fc.assert(
      fc.property(fc.integer({ min: 60_000, max: 30 * 86_400_000 }), (ms) => {
        const text = formatTimeLeft(ms);
        const match = /^about (?:(\d+) d)?(?:(\d+) h)? ?(?:(\d+) min)? left$/.exec(text);
        expect(match, text).not.toBeNull();
        const [, days = "0", hours = "0", minutes = "0"] = match!;
        expect(Number(days) * 1440 + Number(hours) * 60 + Number(minutes), text).toBeGreaterThanOrEqual(ms / 60_000);
      }),
    );
  });

  it("ages never go negative or read NaN", () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (ms) => {
      expect(formatAge(ms)).toMatch(/^\d+ (s|min|h|h \d+ min|d)$/);
    }));
  });

  it("writes UTC times and days the same in every zone", () => {
    expect(formatUtc("2026-11-30T09:00:00Z")).toBe("Mon 30 Nov, 09:00 UTC");
    expect(formatDay("2026-12-01")).toBe("1 Dec 2026");
    expect(formatUtcDateTime("2026-12-01T15:50:00Z")).toBe("1 Dec 2026, 15:50 UTC");
    expect(formatBucket("2026-03-03")).toBe("Mar 3");
    expect(formatBucket("2026-03-03", "week")).toBe("wk Mar 3");
  });
});
