// The settings forms show dollars, seconds and percentages, but the server stores integers
// (micro-dollars, milliseconds) and fractions. Parsing the decimal text digit by digit, instead
// of multiplying a float, keeps "0.15" at exactly 150,000 micro-dollars.

export type ParsedDecimal = { value: number; error?: undefined } | { value: number; error: string };

/**
 * Reads a non-negative decimal with at most `places` decimals as an integer count of
 * 10^-places units ("2.5" with 3 places is 2500). On bad input the value is NaN, so the zod
 * schema rejects it too, and `error` says what is wrong.
 */
export function parseDecimal(text: string, places: number): ParsedDecimal {
  const trimmed = text.trim();
  if (!trimmed) return { value: NaN, error: "Enter a number" };
  if (trimmed.startsWith("-")) return { value: NaN, error: "Cannot be negative" };
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  const whole = match?.[1] ?? "";
  const fraction = match?.[2] ?? "";
  if (!match || (!whole && !fraction)) return { value: NaN, error: places ? "Enter a number, e.g. 2.5" : "Enter a whole number" };
  if (fraction.length > places) {
    return { value: NaN, error: places ? `Use at most ${places} decimal place${places === 1 ? "" : "s"}` : "Enter a whole number" };
  }
  return { value: Number(whole || "0") * 10 ** places + Number(fraction.padEnd(places, "0") || "0") };
}

/** The inverse of parseDecimal: 2500 units with 3 places reads "2.5". */
export function formatDecimal(units: number, places: number): string {
  // Dividing two exact integers rounds once, and String() prints the shortest form that
  // reads back as the same number, so no float noise ("0.15000000000000002") appears.
  return String(units / 10 ** places);
}
