// Password hashes. Everywhere but the test suite: better-auth's own scrypt (N=16384, r=16: about
// 100 ms of CPU and 32 MB per hash, which is the point of a password hash). The test suite signs
// up and signs in hundreds of accounts, each a hash and a verification; with
// BEACON_TEST_CHEAP_PASSWORD_HASH (refused unless NODE_ENV=test, lib/config/env.ts) new hashes
// use scrypt at N=1024, r=8 (about 1/30 of the work). Those hashes carry a prefix, and a hash
// with that prefix verifies only while the setting is on: a production instance never accepts
// one, whatever its database holds. Hashes without the prefix always verify as better-auth's.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { hashPassword as strongHash, verifyPassword as strongVerify } from "better-auth/crypto";

const CHEAP_PREFIX = "test-scrypt$";
const CHEAP = { N: 1024, r: 8, p: 1, keyLength: 64 };

function cheapKey(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, CHEAP.keyLength, { N: CHEAP.N, r: CHEAP.r, p: CHEAP.p }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export type PasswordHashing = {
  hash: (password: string) => Promise<string>;
  verify: (input: { hash: string; password: string }) => Promise<boolean>;
};

/** The hash and verify functions better-auth uses; `cheap` is the test suite's setting. */
export function passwordHashing(cheap: boolean): PasswordHashing {
  return {
    async hash(password) {
      if (!cheap) return strongHash(password);
      const salt = randomBytes(16).toString("hex");
      return `${CHEAP_PREFIX}${salt}:${(await cheapKey(password, salt)).toString("hex")}`;
    },
    async verify({ hash, password }) {
      if (!hash.startsWith(CHEAP_PREFIX)) return strongVerify({ hash, password });
      if (!cheap) return false;
      const [salt, key] = hash.slice(CHEAP_PREFIX.length).split(":");
      if (!salt || !key) return false;
      const expected = Buffer.from(key, "hex");
      const actual = await cheapKey(password, salt);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
