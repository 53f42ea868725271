// Sign-up must not tell which addresses have accounts by how long it takes. That depends on the
// password hash's real cost, so this file runs with the production hash (the other files use the
// test suite's cheaper one, lib/auth/password-hash.ts).
import { describe, expect, it, vi } from "vitest";
import { newBrowser } from "../support/request-context";
import { ok, signUp, uniqueEmail } from "../support/workspace-fixtures";
import { signUpAction } from "@/lib/actions/auth";

vi.hoisted(() => {
  process.env.BEACON_TEST_CHEAP_PASSWORD_HASH = "false";
});
vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

describe("sign up", () => {
  it("takes about as long for an address that has an account as for a new one", async () => {
    const existing = await signUp({ name: "Timing Existing" });
    const time = async (email: string) => {
      const started = performance.now();
      ok(await newBrowser().run(() => signUpAction({ name: "Timing Probe", email, password: "another password" })));
      return performance.now() - started;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const taken: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < 4; i++) {
      taken.push(await time(existing.email));
      fresh.push(await time(uniqueEmail("timing")));
    }
    // Both hash the password (tens of milliseconds); a new address adds a few inserts. Loose on
    // purpose: what matters is that neither answer is an order of magnitude faster.
    expect(median(taken) / median(fresh)).toBeGreaterThan(0.33);
    expect(median(fresh) / median(taken)).toBeLessThan(3);
  });
});
