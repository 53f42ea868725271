import { describe, expect, it } from "vitest";
import { isPermanentDatabaseError, sqlState } from "@/lib/db/sqlstate";

/** A raw query's error as Prisma 7 with @prisma/adapter-pg throws it. */
const prismaRaw = (code: string) =>
  Object.assign(new Error(`Raw query failed. Code: \`${code}\`.`), { name: "PrismaClientKnownRequestError", code: "P2010", meta: { driverAdapterError: { cause: { originalCode: code, kind: "postgres" } } } });

describe("sqlState and isPermanentDatabaseError", () => {
  it("read the SQLSTATE through Prisma's wrapping, never Prisma's own code", () => {
    expect(sqlState(prismaRaw("23503"))).toBe("23503");
    expect(sqlState(Object.assign(new Error("x"), { name: "PrismaClientKnownRequestError", code: "P2010", meta: {} }))).toBeNull();
    expect(sqlState(Object.assign(new Error("x"), { code: "22012", severity: "ERROR" }))).toBe("22012");
    expect(sqlState(new Error("connection terminated unexpectedly"))).toBeNull();
    expect(sqlState(null)).toBeNull();
  });

  it("call integrity, data and statement errors permanent, and failover, conflicts and timeouts not", () => {
    for (const code of ["23503", "23505", "22012", "22P02", "42703", "P0001", "0A000"]) expect(isPermanentDatabaseError(prismaRaw(code)), code).toBe(true);
    for (const code of ["40001", "40P01", "08006", "57P01", "57014", "53300", "55P03", "25006", "XX000"]) expect(isPermanentDatabaseError(prismaRaw(code)), code).toBe(false);
    expect(isPermanentDatabaseError(new Error("the database is read-only (failover in progress)"))).toBe(false);
    expect(isPermanentDatabaseError(Object.assign(new Error("fk"), { name: "PrismaClientKnownRequestError", code: "P2003", meta: {} }))).toBe(true);
    expect(isPermanentDatabaseError(Object.assign(new Error("timeout"), { name: "PrismaClientKnownRequestError", code: "P2028", meta: {} }))).toBe(false);
  });
});
