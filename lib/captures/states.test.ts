import { describe, expect, it } from "vitest";
import { TRANSITIONS, deriveCheckStatus } from "./states";

const counts = (c: Partial<{ queued: number; running: number; succeeded: number; failed: number; cancelled: number }>) => {
  const full = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, ...c };
  return { ...full, total: full.queued + full.running + full.succeeded + full.failed + full.cancelled };
};

describe("deriveCheckStatus", () => {
  it("is queued until a capture starts, then running until all are terminal", () => {
    expect(deriveCheckStatus(counts({ queued: 4 }), false)).toBe("queued");
    expect(deriveCheckStatus(counts({ queued: 3, running: 1 }), false)).toBe("running");
    expect(deriveCheckStatus(counts({ queued: 3, succeeded: 1 }), false)).toBe("running");
  });

  it("tells completed, completed with errors and failed apart", () => {
    expect(deriveCheckStatus(counts({ succeeded: 4 }), false)).toBe("completed");
    expect(deriveCheckStatus(counts({ succeeded: 3, failed: 1 }), false)).toBe("completed_with_errors");
    expect(deriveCheckStatus(counts({ failed: 4 }), false)).toBe("failed");
  });

  it("is cancelled when a cancel was requested and captures were cancelled", () => {
    expect(deriveCheckStatus(counts({ succeeded: 2, cancelled: 2 }), true)).toBe("cancelled");
    expect(deriveCheckStatus(counts({ succeeded: 4 }), true)).toBe("completed");
    expect(deriveCheckStatus(counts({ running: 1, cancelled: 3 }), true)).toBe("running");
  });

  it("is cancelled when every capture was cancelled one by one, failed when nothing answered and one failed", () => {
    expect(deriveCheckStatus(counts({ cancelled: 3 }), false)).toBe("cancelled");
    expect(deriveCheckStatus(counts({ cancelled: 2, failed: 1 }), false)).toBe("failed");
  });
});

describe("TRANSITIONS", () => {
  it("refuse starts where claim does: beacon_claim guards both with the one list it is given", () => {
    expect([...TRANSITIONS.refuse.from]).toEqual([...TRANSITIONS.claim.from]);
    expect([...TRANSITIONS.refuse.to]).toEqual(["failed"]);
  });
});
