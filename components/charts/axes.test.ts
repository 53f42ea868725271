import { describe, expect, test } from "vitest";
import { lineDot, MAX_DOTS } from "./axes";

describe("lineDot", () => {
  test("dots a month of days on one or two lines, and five lines' weeks", () => {
    expect(lineDot(31, 1)).toEqual({ r: 2.5 });
    expect(lineDot(31, 2)).toEqual({ r: 2.5 });
    expect(lineDot(5, 5)).toEqual({ r: 2.5 });
    expect(lineDot(MAX_DOTS / 4, 4)).toEqual({ r: 2.5 });
  });
  test("no dots past 31 points a line or MAX_DOTS in all: the hover's active dot marks the point", () => {
    expect(lineDot(32, 1)).toBe(false);
    expect(lineDot(31, 3)).toBe(false);
    expect(lineDot(30, 5)).toBe(false);
    expect(lineDot(MAX_DOTS / 4 + 1, 4)).toBe(false);
  });
});
