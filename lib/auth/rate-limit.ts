import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { TooManyRequestsError } from "@/lib/errors";
import { addressKey } from "@/lib/net/trusted-proxies";

// One limiter for every way into an account (lib/auth/hooks.ts calls it for better-auth's
// sign-in and sign-up, which the server actions and the HTTP endpoints both go through). Counts
// live in PostgreSQL (auth_attempts), so every web replica sees the same ones, in sliding windows
// by the database's clock.
//
// An attempt is counted BEFORE it runs, under a lock on its buckets, so a thousand guesses sent
// at once get the same five tries as guesses sent one by one. A successful sign-in is then taken
// back (and clears the failures of its account from that client), so only failures count; every
// sign-up attempt counts. While a bucket is full every attempt is refused, the right password
// too, until the oldest counted attempt leaves the window; refused attempts are not counted.
//
// Failed sign-ins lock an account per CLIENT (address, or a browser that has signed in to it
// before), not everywhere: guesses from elsewhere must not lock the owner out (issue 17). A
// larger account-wide bucket stops guessing spread over many addresses; a known browser (signed
// cookie, lib/auth/hooks.ts) skips it and the per-address one, and `beacon auth unlock <email>`
// (unlockAccount) clears an account's failures for anyone else the operator vouches for.

export type AuthAction = "sign-in" | "sign-up";
type Limit = { max: number; windowSeconds: number };

const MINUTE = 60;

/** Attempts per bucket and window. docs/operating.md "Running Beacon for a team" lists them. */
export const AUTH_RATE_LIMITS = {
  // Failed sign-ins, each in 15 minutes: 5 per account (email address, whether or not it has an
  // account) and client, 20 per client address, 50 per account from all unknown clients together.
  "sign-in": {
    client: { max: 5, windowSeconds: 15 * MINUTE },
    address: { max: 20, windowSeconds: 15 * MINUTE },
    account: { max: 50, windowSeconds: 15 * MINUTE },
  },
  // Sign-up attempts: 5 per email address and 20 per client address, each in an hour.
  "sign-up": { account: { max: 5, windowSeconds: 60 * MINUTE }, address: { max: 20, windowSeconds: 60 * MINUTE } },
} satisfies Record<AuthAction, Record<string, Limit>>;

const LONGEST_WINDOW_SECONDS = Math.max(...Object.values(AUTH_RATE_LIMITS).flatMap((limits) => Object.values(limits).map((l) => l.windowSeconds)));

type Bucket = { key: string; limit: Limit };

/** Who attempts: the account's email, the client address (null: unknown), and the id of a browser that signed in to this account before. */
export type Attempter = { email: string; address: string | null; knownDevice?: string | null };

/** The attempt counted by `reserveAuthAttempt`, to take back with `releaseAuthAttempt`. */
export type Reservation = { ids: string[]; clientBucket: string };

/** The account part of bucket keys and of the known-browser cookie: no email address is stored. */
export const accountDigest = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 40);

const clientKey = (who: Attempter) => (who.knownDevice ? `device:${who.knownDevice}` : who.address ? `address:${addressKey(who.address)}` : "unknown");

function bucketsFor(action: AuthAction, who: Attempter): Bucket[] {
  const account = accountDigest(who.email);
  const address = who.address ? addressKey(who.address) : null;
  if (action === "sign-up") {
    const limits = AUTH_RATE_LIMITS["sign-up"];
    const buckets = [{ key: `sign-up:account:${account}`, limit: limits.account }];
    if (address) buckets.push({ key: `sign-up:address:${address}`, limit: limits.address });
    return buckets;
  }
  const limits = AUTH_RATE_LIMITS["sign-in"];
  // The client's own bucket first: releaseAuthAttempt clears it on success.
  const buckets = [{ key: `sign-in:client:${account}:${clientKey(who)}`, limit: limits.client }];
  if (!who.knownDevice) {
    buckets.push({ key: `sign-in:account:${account}`, limit: limits.account });
    if (address) buckets.push({ key: `sign-in:address:${address}`, limit: limits.address });
  }
  return buckets;
}

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * Counts one attempt against its buckets (bucketsFor), or throws a TooManyRequestsError that says
 * when to try again when one is full. `address` null (unknown) makes all unknown clients one.
 */
export async function reserveAuthAttempt(action: AuthAction, who: Attempter): Promise<Reservation> {
  const buckets = bucketsFor(action, who);
  const ids = await transaction(async (tx) => {
    // In a fixed order, so two attempts that share buckets cannot deadlock.
    for (const { key } of [...buckets].sort((a, b) => a.key.localeCompare(b.key))) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
    }
    let retryAfter = 0;
    for (const { key, limit } of buckets) {
      // The newest `max` attempts in the window; when the oldest of them leaves it, one is free.
      const [row] = await tx.$queryRaw<{ count: number; freeInSeconds: number | null }[]>`
        SELECT count(*)::int AS count,
               ceil(extract(epoch FROM min(recent."attemptedAt") + make_interval(secs => ${limit.windowSeconds}) - LOCALTIMESTAMP))::int AS "freeInSeconds"
        FROM (SELECT "attemptedAt" FROM auth_attempts
              WHERE bucket = ${key} AND "attemptedAt" > LOCALTIMESTAMP - make_interval(secs => ${limit.windowSeconds})
              ORDER BY "attemptedAt" DESC LIMIT ${limit.max}) recent`;
      if (row && row.count >= limit.max) retryAfter = Math.max(retryAfter, row.freeInSeconds ?? 1, 1);
    }
    if (retryAfter) {
      const what = action === "sign-in" ? "sign-in attempts" : "sign-up attempts";
      throw new TooManyRequestsError(`Too many ${what}. Try again in ${describeWait(retryAfter)}.`, retryAfter);
    }
    const rows = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO auth_attempts (bucket, "attemptedAt")
      SELECT unnest(${buckets.map((b) => b.key)}::text[]), LOCALTIMESTAMP
      RETURNING id::text`;
    return rows.map((r) => r.id);
  });
  await db().$executeRaw`DELETE FROM auth_attempts WHERE "attemptedAt" < LOCALTIMESTAMP - make_interval(secs => ${LONGEST_WINDOW_SECONDS})`;
  return { ids, clientBucket: buckets[0]!.key };
}

/**
 * Takes a counted attempt back (a successful sign-in); `clearClient` also forgets the earlier
 * failures of this client on this account (not other clients' nor the account-wide count).
 */
export async function releaseAuthAttempt(reservation: Reservation, options: { clearClient: boolean }): Promise<void> {
  await db().$executeRaw`
    DELETE FROM auth_attempts
    WHERE id = ANY(${reservation.ids}::uuid[]) OR (${options.clearClient} AND bucket = ${reservation.clientBucket})`;
}

/**
 * Forgets every failed sign-in counted against `email`'s account, from every client (the
 * operator's `beacon auth unlock <email>`); the per-address counts stay. Returns how many were forgotten.
 */
export async function unlockAccount(email: string): Promise<number> {
  const account = accountDigest(email);
  const clients = `sign-in:client:${account}:`;
  // Every failure is in exactly one client bucket (and maybe also the account-wide one).
  const [row] = await db().$queryRaw<{ failures: number }[]>`
    WITH forgotten AS (
      DELETE FROM auth_attempts WHERE bucket = ${`sign-in:account:${account}`} OR starts_with(bucket, ${clients}) RETURNING bucket)
    SELECT count(*) FILTER (WHERE starts_with(bucket, ${clients}))::int AS failures FROM forgotten`;
  return row?.failures ?? 0;
}
