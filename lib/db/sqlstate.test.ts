import { describe, expect, it } from "vitest";
import { deletedMeanwhile, isPermanentDatabaseError, sqlState } from "@/lib/db/sqlstate";

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

describe("deletedMeanwhile", () => {
  const orm = (code: string) => Object.assign(new Error(code), { name: "PrismaClientKnownRequestError", code, meta: {} });
  it("reads a write that raced a delete as the person should: the row gone (404), a row it refers to gone (409)", () => {
    expect(deletedMeanwhile(orm("P2025"))).toMatchObject({ status: 404, code: "not_found", message: expect.stringMatching(/deleted meanwhile/) });
    expect(deletedMeanwhile(orm("P2003"))).toMatchObject({ status: 409, code: "conflict", message: expect.stringMatching(/deleted meanwhile/) });
    expect(deletedMeanwhile(prismaRaw("23503"))).toMatchObject({ status: 409, code: "conflict" });
  });

  it("leaves every other error alone (a bug stays a logged 500)", () => {
    for (const error of [orm("P2002"), orm("P2028"), prismaRaw("23505"), prismaRaw("40001"), new Error("boom"), Object.assign(new Error("x"), { code: "P2025" }), null]) expect(deletedMeanwhile(error)).toBeNull();
  });
});
