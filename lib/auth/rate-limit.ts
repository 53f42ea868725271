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
// back (and clears its account's failures), so only failures count; every sign-up attempt counts.
// While a bucket is full every attempt is refused, the right password too, until the oldest
// counted attempt leaves the window; refused attempts are not counted.

export type AuthAction = "sign-in" | "sign-up";
type Limit = { max: number; windowSeconds: number };

const MINUTE = 60;

/** Attempts per bucket and window. README "Running Beacon for a team" lists them. */
export const AUTH_RATE_LIMITS: Record<AuthAction, { account: Limit; address: Limit }> = {
  // Failed sign-ins: 5 per account (email address, whether or not it has an account) and 20 per
  // client address, each in 15 minutes.
  "sign-in": { account: { max: 5, windowSeconds: 15 * MINUTE }, address: { max: 20, windowSeconds: 15 * MINUTE } },
  // Sign-up attempts: 5 per email address and 20 per client address, each in an hour.
  "sign-up": { account: { max: 5, windowSeconds: 60 * MINUTE }, address: { max: 20, windowSeconds: 60 * MINUTE } },
};

const LONGEST_WINDOW_SECONDS = Math.max(...Object.values(AUTH_RATE_LIMITS).flatMap((l) => [l.account.windowSeconds, l.address.windowSeconds]));

type Bucket = { key: string; limit: Limit };

/** The attempt counted by `reserveAuthAttempt`, to take back with `releaseAuthAttempt`. */
export type Reservation = { ids: string[]; accountBucket: string };

const emailDigest = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 40);

function bucketsFor(action: AuthAction, who: { email: string; address: string | null }): Bucket[] {
  const limits = AUTH_RATE_LIMITS[action];
  const buckets = [{ key: `${action}:account:${emailDigest(who.email)}`, limit: limits.account }];
  if (who.address) buckets.push({ key: `${action}:address:${addressKey(who.address)}`, limit: limits.address });
  return buckets;
}

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * Counts one attempt against the account's and the address's buckets, or throws a
 * TooManyRequestsError that says when to try again when either is full. `address` null (unknown)
 * counts the account only.
 */
export async function reserveAuthAttempt(action: AuthAction, who: { email: string; address: string | null }): Promise<Reservation> {
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
  return { ids, accountBucket: buckets[0]!.key };
}

/** Takes a counted attempt back (a successful sign-in); `clearAccount` also forgets the account's earlier failures. */
export async function releaseAuthAttempt(reservation: Reservation, options: { clearAccount: boolean }): Promise<void> {
  await db().$executeRaw`
    DELETE FROM auth_attempts
    WHERE id = ANY(${reservation.ids}::uuid[]) OR (${options.clearAccount} AND bucket = ${reservation.accountBucket})`;
}
