import { describe, expect, it } from "vitest";
import { PASSWORD_MAX, PASSWORD_MIN } from "./account-fields";
import { isCommonPassword, newPasswordProblem } from "./password-policy";

describe("newPasswordProblem", () => {
  it("accepts a long, uncommon password, spaces and all", () => {
    expect(newPasswordProblem("correct horse battery")).toBeNull();
    expect(newPasswordProblem("Zoë's 🔑 is long")).toBeNull();
    expect(newPasswordProblem("x".repeat(PASSWORD_MAX - 1) + "y")).toBeNull();
  });

  it("refuses fewer than 10 and more than 128 characters", () => {
    expect(newPasswordProblem("a1b2c3d4e")).toMatch(/at least 10/);
    expect(newPasswordProblem(`${"x".repeat(PASSWORD_MAX)}y`)).toMatch(/at most 128/);
    expect(PASSWORD_MIN).toBe(10);
  });

  it("refuses common passwords whatever their case", () => {
    for (const password of ["password123", "PASSWORD123", "qwertyuiop", "1q2w3e4r5t6y", "Basketball"]) {
      expect(isCommonPassword(password), password).toBe(true);
      expect(newPasswordProblem(password), password).toMatch(/too common/);
    }
  });

  it("refuses control characters and what is not text", () => {
    expect(newPasswordProblem("long enough\u0000password")).toMatch(/control character/);
    expect(newPasswordProblem("long enough\npassword")).toMatch(/control character/);
    expect(newPasswordProblem(undefined)).toMatch(/password/i);
    expect(newPasswordProblem(12345678901)).toMatch(/password/i);
  });
});
