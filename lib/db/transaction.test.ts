import { describe, expect, it } from "vitest";
import { retryDelayMs, retryReason, withRetries } from "@/lib/db/transaction";
import { UserError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

// The shapes below are the ones Prisma 7 with @prisma/adapter-pg throws (the integration test
// tests/integration/transactions.test.ts provokes the real ones): pg's own error, and Prisma's
// known request errors that carry the driver adapter's error (SQLSTATE in cause.originalCode).
const pgError = (code: string) => Object.assign(new Error(`pg error ${code}`), { code, severity: "ERROR" });
const adapterError = (kind: string, originalCode: string) => ({ name: "DriverAdapterError", cause: { kind, originalCode, originalMessage: `sqlstate ${originalCode}` } });
const prismaError = (code: string, message: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.0", meta });

describe("retryReason", () => {
  it("accepts serialization failures, deadlocks and lock timeouts wherever their SQLSTATE is", () => {
    expect(retryReason(pgError("40001"))).toBe("serialization_failure");
    expect(retryReason(pgError("40P01"))).toBe("deadlock");
    expect(retryReason(pgError("55P03"))).toBe("lock_not_available");
    // A raw query's error (P2010) and a model query's (P2034, P2039) carry the adapter's error.
    expect(retryReason(prismaError("P2010", "Raw query failed. Code: `55P03`", { driverAdapterError: adapterError("postgres", "55P03") }))).toBe("lock_not_available");
    expect(retryReason(prismaError("P2034", "write conflict or deadlock", { driverAdapterError: adapterError("TransactionWriteConflict", "40P01") }))).toBe("deadlock");
    expect(retryReason(prismaError("P2039", "Database error", { driverAdapterError: adapterError("postgres", "40001") }))).toBe("serialization_failure");
    // Wrapped once more (an error rethrown with its cause).
    expect(retryReason(new Error("batch failed", { cause: pgError("40P01") }))).toBe("deadlock");
  });

  it("accepts Prisma's write conflict without a SQLSTATE, and its two time limits", () => {
    expect(retryReason(prismaError("P2034", "Transaction failed due to a write conflict or a deadlock. Please retry your transaction"))).toBe("write_conflict");
    expect(
      retryReason(prismaError("P2028", "Transaction API error: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms", { timeout: 5000 })),
    ).toBe("transaction_timeout");
    expect(retryReason(prismaError("P2028", "Transaction API error: Unable to start a transaction in the given time."))).toBe("transaction_timeout");
  });

  it("refuses everything else, including P2028s after which the transaction may have committed", () => {
    expect(retryReason(prismaError("P2028", "Transaction API error: Transaction already closed: A commit cannot be executed on a committed transaction."))).toBeNull();
    expect(retryReason(prismaError("P2028", "Transaction API error: Internal Consistency Error: x"))).toBeNull();
    expect(retryReason(prismaError("P2002", "Unique constraint failed", { target: ["name"] }))).toBeNull();
    expect(retryReason(prismaError("P2010", "Raw query failed. Code: `23505`", { driverAdapterError: adapterError("postgres", "23505") }))).toBeNull();
    expect(retryReason(pgError("57014"))).toBeNull(); // statement timeout: the statement is too slow, not unlucky
    expect(retryReason(new UserError("A workspace needs at least one owner."))).toBeNull();
    // No guessing from words: a message is not a code.
    expect(retryReason(new Error("deadlock detected"))).toBeNull();
    expect(retryReason(null)).toBeNull();
    expect(retryReason("40001")).toBeNull();
  });

  it("terminates on an error that is its own cause", () => {
    const looped: Error & { cause?: unknown } = new Error("loop");
    looped.cause = looped;
    expect(retryReason(looped)).toBeNull();
  });
});

describe("withRetries", () => {
  const counting = (fail: (call: number) => unknown) => {
    const calls = { n: 0 };
    const work = async () => {
      calls.n++;
      const error = fail(calls.n);
      if (error) throw error;
      return `done after ${calls.n}`;
    };
    return { calls, work };
  };

  it("runs work that lost a conflict again, and returns what the run that succeeded returned", async () => {
    const { calls, work } = counting((n) => (n < 3 ? pgError("40P01") : null));
    await expect(withRetries(work, { attempts: 4 })).resolves.toBe("done after 3");
    expect(calls.n).toBe(3);
  });

  it("stops after `attempts` runs in all and throws the last error", async () => {
    const { calls, work } = counting((n) => Object.assign(pgError("40001"), { run: n }));
    await expect(withRetries(work, { attempts: 3 })).rejects.toMatchObject({ code: "40001", run: 3 });
    expect(calls.n).toBe(3);
  });

  it("runs once when attempts is 1", async () => {
    const { calls, work } = counting(() => pgError("40001"));
    await expect(withRetries(work, { attempts: 1 })).rejects.toMatchObject({ code: "40001" });
    expect(calls.n).toBe(1);
  });

  it("never runs again after an error it does not accept", async () => {
    const { calls, work } = counting(() => new UserError("nope"));
    await expect(withRetries(work, { attempts: 4 })).rejects.toBeInstanceOf(UserError);
    expect(calls.n).toBe(1);
    const unique = counting(() => prismaError("P2002", "Unique constraint failed"));
    await expect(withRetries(unique.work, { attempts: 4 })).rejects.toMatchObject({ code: "P2002" });
    expect(unique.calls.n).toBe(1);
  });

  it("takes its bound from BEACON_DB_TRANSACTION_ATTEMPTS (4) when not given one", async () => {
    const { calls, work } = counting(() => pgError("55P03"));
    await expect(withRetries(work)).rejects.toMatchObject({ code: "55P03" });
    expect(calls.n).toBe(4);
  });
});

describe("retryDelayMs", () => {
  it("doubles from 25 ms, capped at 1 s, with at least half of each step kept", () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, () => 1))).toEqual([25, 50, 100, 200]);
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, () => 0))).toEqual([13, 25, 50, 100]);
    expect(retryDelayMs(20, () => 1)).toBe(1_000);
    expect(retryDelayMs(20, () => 0)).toBe(500);
  });
});
