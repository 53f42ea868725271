import { describe, expect, it } from "vitest";
import { classifyHttpStatus, parseRetryAfter } from "./errors";

const headers = (h: Record<string, string>) => new Headers(h);

describe("classifyHttpStatus", () => {
  it.each([
    [400, "permanent"],
    [401, "permanent"],
    [403, "permanent"],
    [404, "permanent"],
    [422, "permanent"],
    [408, "transient"],
    [429, "transient"],
    [500, "transient"],
    [502, "transient"],
    [503, "transient"],
    [504, "transient"],
    [529, "transient"],
  ])("%i is %s", (status, expected) => expect(classifyHttpStatus(status)).toBe(expected));
});

describe("parseRetryAfter", () => {
  it("reads seconds, an HTTP date, and retry-after-ms (which wins)", () => {
    expect(parseRetryAfter(headers({ "retry-after": "3" }))).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "3", "retry-after-ms": "1500" }))).toBe(1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
  });

  it("ignores missing or malformed values", () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
