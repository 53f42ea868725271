import { describe, expect, it } from "vitest";
import { classifyHttpStatus, retryDelayMs, shortError } from "@/lib/alerts/retry";

describe("classifyHttpStatus", () => {
  it("delivers on 2xx, retries 408, 429 and 5xx, and gives up on other 4xx and on redirects", () => {
    expect(classifyHttpStatus(200).kind).toBe("delivered");
    expect(classifyHttpStatus(204).kind).toBe("delivered");
    for (const s of [408, 429, 500, 502, 503, 504]) expect(classifyHttpStatus(s).kind, String(s)).toBe("transient");
    for (const s of [400, 401, 403, 404, 410, 422]) expect(classifyHttpStatus(s).kind, String(s)).toBe("permanent");
    expect(classifyHttpStatus(301)).toMatchObject({ kind: "permanent", responseStatus: 301, error: expect.stringMatching(/redirects are not followed/) });
  });
});

describe("retryDelayMs", () => {
  it("grows five-fold per attempt, between half and all of the step", () => {
    const base = 60_000;
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, base, () => 1))).toEqual([60_000, 300_000, 1_500_000, 7_500_000, 37_500_000]);
    expect([1, 2, 3].map((a) => retryDelayMs(a, base, () => 0))).toEqual([30_000, 150_000, 750_000]);
    const jittered = retryDelayMs(2, base, () => 0.5);
    expect(jittered).toBe(225_000);
  });
});

describe("shortError", () => {
  it("keeps one short line and hides a URL's path, query and credentials", () => {
    const e = shortError("connect failed\n to https://user:pw@hooks.slack.com/services/T0/B0/SECRET?x=1 after 3 tries");
    expect(e).toBe("connect failed to https://hooks.slack.com/… after 3 tries");
    expect(shortError("x".repeat(500))).toHaveLength(300);
  });
});
