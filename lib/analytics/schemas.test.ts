import { describe, expect, it } from "vitest";
import { analyticsFilterInput, filterFromSearchParams, filterSearchParams, lastDays } from "@/lib/analytics/schemas";

const NOW = new Date("2025-03-10T15:30:00Z");

describe("analyticsFilterInput", () => {
  it("turns inclusive days into [from, next midnight)", () => {
    const parsed = analyticsFilterInput.parse({ from: "2025-03-01", to: "2025-03-10" });
    expect(parsed.from).toEqual(new Date("2025-03-01T00:00:00Z"));
    expect(parsed.to).toEqual(new Date("2025-03-11T00:00:00Z"));
    expect(parsed).toMatchObject({ providers: [], tags: [] });
  });

  it("defaults to the 30 days up to the end date", () => {
    const parsed = analyticsFilterInput.parse({ to: "2025-03-10" });
    expect(parsed.from).toEqual(new Date("2025-02-09T00:00:00Z"));
  });

  it("accepts 400 days and refuses 401 or a reversed range", () => {
    expect(analyticsFilterInput.safeParse({ from: "2024-02-05", to: "2025-03-10" }).success).toBe(true);
    const tooLong = analyticsFilterInput.safeParse({ from: "2024-02-04", to: "2025-03-10" });
    expect(tooLong.error?.issues[0]).toMatchObject({ path: ["from"], message: "Choose at most 400 days" });
    expect(analyticsFilterInput.safeParse({ from: "2025-03-11", to: "2025-03-10" }).success).toBe(false);
    expect(analyticsFilterInput.safeParse({ from: "2025-02-30" }).success).toBe(false);
  });

  it("removes duplicate ids and lower-cases tags, as prompts store them", () => {
    const id = "0b8a3c1e-3f0a-4c55-9a51-2f4c7a1d9e01";
    expect(analyticsFilterInput.parse({ providers: [id, id], tags: ["Buying", "buying"] })).toMatchObject({ providers: [id], tags: ["buying"] });
  });
});

describe("filter in the query string", () => {
  it("reads presets as the last N days, today included", () => {
    expect(filterFromSearchParams(new URLSearchParams("range=7"), NOW)).toMatchObject({ from: "2025-03-04", to: "2025-03-10" });
    expect(lastDays(30, NOW)).toEqual({ from: "2025-02-09", to: "2025-03-10" });
    // An unknown preset falls back to 30 days.
    expect(filterFromSearchParams(new URLSearchParams("range=12"), NOW)).toMatchObject(lastDays(30, NOW));
  });

  it("prefers explicit dates and reads lists comma-separated or repeated", () => {
    const params = new URLSearchParams("range=7&from=2025-01-01&to=2025-01-31&providers=a,b&providers=c&tags=x&markets=DE:de,:ru");
    expect(filterFromSearchParams(params, NOW)).toEqual({ brandId: undefined, providers: ["a", "b", "c"], tags: ["x"], markets: ["DE:de", ":ru"], from: "2025-01-01", to: "2025-01-31" });
  });

  it("round-trips through filterSearchParams", () => {
    const filter = { brandId: "b", providers: ["p1", "p2"], tags: ["smb"], markets: ["US:en"], from: "2025-01-01", to: "2025-01-31" };
    expect(filterFromSearchParams(filterSearchParams(filter), NOW)).toEqual(filter);
  });
});
