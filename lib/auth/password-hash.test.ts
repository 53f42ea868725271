import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from "better-auth/crypto";
import { describe, expect, it } from "vitest";
import { passwordHashing } from "./password-hash";

const production = passwordHashing(false);
const testSuite = passwordHashing(true);
const PASSWORD = "correct horse battery staple";

describe("password hashes", () => {
  it("are better-auth's own outside the test suite, and verify both ways", async () => {
    const hash = await production.hash(PASSWORD);
    expect(await betterAuthVerify({ hash, password: PASSWORD })).toBe(true);
    expect(await production.verify({ hash, password: PASSWORD })).toBe(true);
    expect(await production.verify({ hash, password: `${PASSWORD}!` })).toBe(false);
    expect(await production.verify({ hash: await betterAuthHash(PASSWORD), password: PASSWORD })).toBe(true);
  });

  it("are cheaper in the test suite, and such a hash never verifies with the setting off", async () => {
    const hash = await testSuite.hash(PASSWORD);
    expect(hash).not.toContain(PASSWORD);
    expect(await testSuite.verify({ hash, password: PASSWORD })).toBe(true);
    expect(await testSuite.verify({ hash, password: `${PASSWORD}!` })).toBe(false);
    expect(await production.verify({ hash, password: PASSWORD })).toBe(false);
    expect(await betterAuthVerify({ hash, password: PASSWORD })).toBe(false);
  });

  it("verify production hashes in the test suite too (accounts made by better-auth directly)", async () => {
    expect(await testSuite.verify({ hash: await betterAuthHash(PASSWORD), password: PASSWORD })).toBe(true);
  });
});
