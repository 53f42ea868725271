import { describe, expect, it } from "vitest";
import { backoffMs, decideAfterFailure } from "./retry-policy";

const base = { reason: "boom", maxAttempts: 3, unknownRetries: 1, baseMs: 1000 };

describe("backoffMs", () => {
  it("draws uniformly below a ceiling that doubles per attempt (full jitter)", () => {
    expect(backoffMs(1, undefined, () => 0.999, 1000)).toBe(999);
    expect(backoffMs(2, undefined, () => 0.999, 1000)).toBe(1998);
    expect(backoffMs(3, undefined, () => 0.999, 1000)).toBe(3996);
    expect(backoffMs(3, undefined, () => 0, 1000)).toBe(0);
  });

  it("caps the ceiling at one minute", () => {
    expect(backoffMs(30, undefined, () => 0.999, 1000)).toBeLessThan(60_000);
  });

  it("never retries sooner than Retry-After", () => {
    expect(backoffMs(1, 5000, () => 0.5, 1000)).toBe(5000);
    expect(backoffMs(3, 100, () => 0.5, 1000)).toBe(2000);
  });
});

describe("decideAfterFailure", () => {
  it("fails permanent errors at once", () => {
    expect(decideAfterFailure({ ...base, retryClass: "permanent", spent: 1, unknownSpent: 0 })).toEqual({ next: "failed", reason: "boom" });
  });

  it("retries transient errors until maxAttempts, then fails saying so", () => {
    expect(decideAfterFailure({ ...base, retryClass: "transient", spent: 1, unknownSpent: 0, random: () => 0.5 })).toEqual({ next: "retry", delayMs: 500 });
    expect(decideAfterFailure({ ...base, retryClass: "transient", spent: 2, unknownSpent: 0, random: () => 0.5 })).toEqual({ next: "retry", delayMs: 1000 });
    const last = decideAfterFailure({ ...base, retryClass: "transient", spent: 3, unknownSpent: 0 });
    expect(last).toEqual({ next: "failed", reason: "boom (gave up after 3 attempts)" });
  });

  it("waits a Retry-After of up to 15 minutes, and fails a capture asked to wait longer, saying how long", () => {
    expect(decideAfterFailure({ ...base, retryClass: "transient", spent: 1, unknownSpent: 0, retryAfterMs: 15 * 60_000, random: () => 0 })).toEqual({ next: "retry", delayMs: 15 * 60_000 });
    expect(decideAfterFailure({ ...base, retryClass: "transient", spent: 1, unknownSpent: 0, retryAfterMs: 26 * 3_600_000 })).toEqual({
      next: "failed",
      reason: "boom (the provider asked to wait 26 h before trying again; retry the capture then)",
    });
  });

  it("retries an unknown outcome only as often as the provider's policy allows", () => {
    expect(decideAfterFailure({ ...base, retryClass: "unknown", spent: 1, unknownSpent: 1, random: () => 0 }).next).toBe("retry");
    const second = decideAfterFailure({ ...base, retryClass: "unknown", spent: 2, unknownSpent: 2 });
    expect(second.next).toBe("failed");
    expect(decideAfterFailure({ ...base, unknownRetries: 0, retryClass: "unknown", spent: 1, unknownSpent: 1 }).next).toBe("failed");
  });
});
