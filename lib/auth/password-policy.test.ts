import { describe, expect, it } from "vitest";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/validation/account-fields";
import { newPasswordProblem } from "./password-policy";

describe("newPasswordProblem", () => {
  it("accepts a long, hard-to-guess password, spaces and all", () => {
    expect(newPasswordProblem("correct horse battery")).toBeNull();
    expect(newPasswordProblem("Zoë's 🔑 is long")).toBeNull();
    expect(newPasswordProblem("Tr0ub4dor&3x-kept")).toBeNull();
  });

  it("refuses fewer than 10 and more than 128 characters", () => {
    expect(newPasswordProblem("a1b2c3d4e")).toMatch(/at least 10/);
    expect(newPasswordProblem(`${"x".repeat(PASSWORD_MAX)}y`)).toMatch(/at most 128/);
    expect(PASSWORD_MIN).toBe(10);
  });

  it("refuses what is long enough but easy to guess, and says why", () => {
    const cases: [string, RegExp][] = [
      ["aaaaaaaaaa", /Repeated characters/],
      ["x".repeat(PASSWORD_MAX - 1) + "y", /Repeated characters/],
      ["abcabcabcabc", /Repeated character patterns/],
      ["abcdefghijkl", /character sequences/],
      ["password123", /commonly used password/],
      ["PASSWORD123", /commonly used password/],
      ["1q2w3e4r5t6y", /commonly used password/],
      ["Basketball", /commonly used password/],
      ["1234567890", /hundred most used/],
      ["beaconbeacon1", /too easy to guess/],
    ];
    for (const [password, why] of cases) {
      const problem = newPasswordProblem(password);
      expect(problem, password).toMatch(/^This password is too easy to guess\. /);
      expect(problem, password).toMatch(why);
    }
  });

  it("refuses a password made of the person's own name or address", () => {
    expect(newPasswordProblem("ada.lovelace@example.com")).toBeNull();
    expect(newPasswordProblem("ada.lovelace@example.com", ["Ada Lovelace", "ada.lovelace@example.com"])).toMatch(/personal data/);
  });

  it("refuses control characters and what is not text", () => {
    expect(newPasswordProblem("long enough\u0000password")).toMatch(/control character/);
    expect(newPasswordProblem("long enough\npassword")).toMatch(/control character/);
    expect(newPasswordProblem(undefined)).toMatch(/password/i);
    expect(newPasswordProblem(12345678901)).toMatch(/password/i);
  });
});
