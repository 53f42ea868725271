import { describe, expect, it } from "vitest";
import { canReadMetrics } from "@/lib/metrics/access";

const TOKEN = "a-metrics-token-of-32-characters";

describe("canReadMetrics", () => {
  it("in production without a token, refuses everyone (metrics and health details are off)", () => {
    const production = { nodeEnv: "production" };
    expect(canReadMetrics(null, production)).toMatchObject({ allowed: false, status: 403, code: "metrics_disabled" });
    expect(canReadMetrics(`Bearer ${TOKEN}`, production)).toMatchObject({ allowed: false, status: 403 });
    expect(canReadMetrics("Bearer ", production)).toMatchObject({ allowed: false, status: 403 });
  });

  it("with a token, in any mode, lets in exactly the bearer of that token", () => {
    for (const nodeEnv of ["production", "development", "test"]) {
      const config = { nodeEnv, token: TOKEN };
      expect(canReadMetrics(`Bearer ${TOKEN}`, config)).toEqual({ allowed: true, why: "token" });
      expect(canReadMetrics(`bearer ${TOKEN}`, config)).toEqual({ allowed: true, why: "token" });
      for (const wrong of [null, "", TOKEN, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, `Bearer ${TOKEN} extra`]) {
        expect(canReadMetrics(wrong, config), String(wrong)).toMatchObject({ allowed: false, status: 401, code: "unauthorized" });
      }
    }
  });

  it("in development and tests without a token, stays open as before", () => {
    expect(canReadMetrics(null, { nodeEnv: "development" })).toEqual({ allowed: true, why: "development" });
    expect(canReadMetrics(null, { nodeEnv: "test" })).toEqual({ allowed: true, why: "development" });
  });
});
