import { describe, expect, it } from "vitest";
import { demoSeedPlan } from "./demo-seed";

describe("demoSeedPlan", () => {
  it("npm run dev seeds the demo unless BEACON_SEED_DEMO=false", () => {
    expect(demoSeedPlan("dev", undefined)).toMatchObject({ seed: true, warning: null });
    expect(demoSeedPlan("dev", true)).toMatchObject({ seed: true, warning: null });
    expect(demoSeedPlan("dev", false)).toMatchObject({ seed: false });
  });

  it("npm start seeds no demo account unless BEACON_SEED_DEMO=true is set explicitly, and then warns", () => {
    expect(demoSeedPlan("start", undefined)).toMatchObject({ seed: false, warning: null });
    expect(demoSeedPlan("start", false)).toMatchObject({ seed: false, warning: null });
    const asked = demoSeedPlan("start", true);
    expect(asked.seed).toBe(true);
    expect(asked.warning).toMatch(/demo login is public/);
  });

  it("the web server and worker alone never seed", () => {
    for (const setting of [undefined, true, false]) {
      expect(demoSeedPlan("web", setting).seed).toBe(false);
      expect(demoSeedPlan("worker", setting).seed).toBe(false);
    }
  });
});
