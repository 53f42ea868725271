import { ConflictError, NotFoundError, type UserError } from "@/lib/errors";

// Whether a database error will happen again however often the same statement is sent. A result
// write is retried while the database fails (connection lost, failover, timeouts, conflicts), but
// an integrity or data error, or a statement PostgreSQL refuses as written, fails the same way
// every time: retrying it only holds the run until its deadline.

/**
 * The PostgreSQL SQLSTATE of an error, through Prisma's wrapping: a raw query's error (P2010)
 * and the ORM's carry the driver adapter's error, whose cause has the original code; a `pg`
 * error has it as `code`.
 */
export function sqlState(error: unknown): string | null {
  const e = error as {
    name?: string;
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: { originalCode?: unknown };
  } | null;
  const candidates = [e?.meta?.driverAdapterError?.cause?.originalCode, e?.cause?.originalCode];
  // Prisma's own codes (P2010) have the shape of a SQLSTATE: only a driver's error says `code` is one.
  if (e && e.name !== "PrismaClientKnownRequestError") candidates.push(e.code);
  const code = candidates.find((c): c is string => typeof c === "string" && /^[0-9A-Z]{5}$/.test(c));
  return code ?? null;
}

/**
 * SQLSTATE classes that do not go away by themselves: cardinality (21), data exception (22),
 * integrity constraint (23), dependent privileges (2B), SQL routine and external routine errors
 * (2F, 38, 39), feature not supported (0A), syntax or access rule (42), check option (44),
 * PL/pgSQL raise (P0). Everything else (connection 08, rollback 40, resources 53, lock not
 * available 55, operator intervention 57, system 58, internal XX, read-only transaction 25006
 * during a failover) may pass.
 */
const PERMANENT_CLASSES = new Set(["21", "22", "23", "2B", "2F", "38", "39", "0A", "42", "44", "P0"]);

/** The ORM's names for some of them, when it reports no SQLSTATE: value too long, unique, foreign key, constraint, null. */
const PERMANENT_PRISMA_CODES = new Set(["P2000", "P2002", "P2003", "P2004", "P2011"]);

export function isPermanentDatabaseError(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== null) return PERMANENT_CLASSES.has(code.slice(0, 2));
  const e = error as { name?: string; code?: unknown } | null;
  return e?.name === "PrismaClientKnownRequestError" && typeof e.code === "string" && PERMANENT_PRISMA_CODES.has(e.code);
}

/** A unique index refused the row (Prisma's P2002, or SQLSTATE 23505 from a raw query): another writer made it first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2002" || sqlState(error) === "23505";
}

/**
 * A write that raced a delete, as the person who sent it should read it: the row it changes was
 * deleted (Prisma's P2025), or a row it refers to was (a foreign key: P2003, or SQLSTATE 23503
 * from a raw query). Checks read their references first; one deleted between that read and the
 * write would otherwise answer "something went wrong". Null for any other error.
 */
export function deletedMeanwhile(error: unknown): UserError | null {
  const code = (error as { name?: string; code?: unknown } | null)?.name === "PrismaClientKnownRequestError" ? (error as { code: unknown }).code : null;
  if (code === "P2025") return new NotFoundError("What this changes was deleted meanwhile (by someone else, or in another tab). Reload to see it as it is now.");
  if (code === "P2003" || sqlState(error) === "23503") return new ConflictError("Something this refers to was deleted meanwhile (by someone else, or in another tab). Reload and try again.");
  return null;
}
