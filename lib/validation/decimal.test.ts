import { describe, expect, it } from "vitest";
import { formatDecimal, parseDecimal } from "./decimal";

describe("parseDecimal / formatDecimal", () => {
  it("reads decimals exactly as integer units", () => {
    expect(parseDecimal("0.15", 6).value).toBe(150_000);
    expect(parseDecimal("2.5", 3).value).toBe(2500);
    expect(parseDecimal(".5", 1).value).toBe(5);
    expect(parseDecimal("10", 0).value).toBe(10);
  });

  it("refuses negatives, too many places and garbage with a message", () => {
    expect(parseDecimal("-1", 2).error).toBe("Cannot be negative");
    expect(parseDecimal("1.234", 2).error).toBe("Use at most 2 decimal places");
    expect(parseDecimal("abc", 2).error).toMatch(/Enter a number/);
    expect(parseDecimal("", 2).error).toBe("Enter a number");
  });

  it("round-trips micro-dollar values without float noise", () => {
    const failures: number[] = [];
    for (let micros = 0; micros <= 2_000_000; micros += 997) if (parseDecimal(formatDecimal(micros, 6), 6).value !== micros) failures.push(micros);
    for (const micros of [1, 150_000, 250_000, 2_500_000, 35_000, 999_999]) if (parseDecimal(formatDecimal(micros, 6), 6).value !== micros) failures.push(micros);
    expect(failures).toEqual([]);
  });
});
