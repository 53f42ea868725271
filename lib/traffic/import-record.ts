import "server-only";
import { createHash, type Hash } from "node:crypto";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { UserError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { hashRequest, IDEMPOTENCY_TTL_MS, IdempotencyMismatchError } from "@/lib/idempotency";

type Tx = Prisma.TransactionClient;

// An access log import sent with an Idempotency-Key (docs/traffic.md). A log is stored in chunks,
// each one transaction (hit-writer.ts); each chunk also records, in its transaction, the lines
// whose hits it completes and the SHA-256 of those lines. So after a lost response or an upload
// broken off, the same request sent again skips exactly the lines already stored (after checking
// they are the same lines), and after the import ended it gets the import's report back.

/** The lease's end from now: renewed while lines come (renewLease); a request sent again waits it out (409). */
const leaseEnd = (seconds = env().BEACON_TRAFFIC_IMPORT_LEASE_SECONDS) => Prisma.sql`now() + make_interval(secs => ${seconds})`;
/** The key's end from now: IDEMPOTENCY_TTL_MS after it was last sent or stored a chunk. */
const keyEnd = () => Prisma.sql`now() + make_interval(secs => ${IDEMPOTENCY_TTL_MS / 1000})`;

export class ImportInProgressError extends UserError {
  override readonly status = 409;
  override readonly code: string = "import_in_progress";
}

/** The lines of a log as an import record hashes them: each line and its line break. */
export class LineHash {
  private readonly hash: Hash = createHash("sha256");
  add(line: string) {
    this.hash.update(line);
    this.hash.update("\n");
  }
  /** The hash of the lines added so far (it goes on). */
  digest(): string {
    return this.hash.copy().digest("hex");
  }
}

/** A claimed import: this request writes it, from line `committedLines + 1` on. */
/**
 * `fallbackHost`: the host of lines without one as the import began (null: none), which a resumed
 * import keeps whatever the domains are now; undefined for an import begun before it was recorded.
 */
export type ClaimedImport = { kind: "claimed"; id: string; token: number; committedLines: number; committedHash: string | null; committedHits: number; fallbackHost: string | null | undefined };

/** The stored fallbackHost: '' for none, NULL for not recorded (an import begun before migration 20261220120000). */
const storedHost = (host: string | null) => host ?? "";
const readHost = (stored: string | null) => (stored === null ? undefined : stored || null);
/** The import ended before: its report, and the hash of its lines (the body must have the same). */
export type EndedImport<Report> = { kind: "ended"; id: string; report: Report; bodyHash: string };

/** An ended import sent again, its body seen to be the same log: the key answers for another 24 hours (a client that retries keeps it). */
export async function renewEndedImport(importId: string): Promise<void> {
  await db().$executeRaw`UPDATE traffic_imports SET "expiresAt" = ${keyEnd()} WHERE id = ${importId}::uuid AND state = 'done'`;
}

type Row = { id: string; requestHash: string; state: "running" | "interrupted" | "done"; token: number; leaseHeld: boolean; expired: boolean; committedLines: number; committedHash: string | null; committedHits: number; fallbackHost: string | null; bodyHash: string | null; report: unknown };

/**
 * Starts or resumes the import keyed `key` in the workspace, for a request of these options
 * (format, host). A key answers for 24 hours after it was last claimed or stored a chunk (never
 * while a request holds it); after that it starts afresh; with other options it is refused
 * (422); while another request runs it, 409 until that one ends or its lease passes (its process
 * died), when this one takes it over: the other's next chunk then rolls back (the token).
 */
export async function claimImport<Report>(workspaceId: string, key: string, options: Record<string, unknown>, fallbackHost: string | null): Promise<ClaimedImport | EndedImport<Report>> {
  const requestHash = hashRequest(options);
  return transaction(async (tx) => {
    const [created] = await tx.$queryRaw<{ id: string; token: number }[]>`
      INSERT INTO traffic_imports ("workspaceId", key, "requestHash", "fallbackHost", "leaseUntil", "expiresAt")
      VALUES (${workspaceId}::uuid, ${key}, ${requestHash}, ${storedHost(fallbackHost)}, ${leaseEnd()}, ${keyEnd()})
      ON CONFLICT ("workspaceId", key) DO NOTHING
      RETURNING id, token`;
    if (created) return { kind: "claimed", ...created, committedLines: 0, committedHash: null, committedHits: 0, fallbackHost };
    const [row] = await tx.$queryRaw<Row[]>`
      SELECT id, "requestHash", state::text AS state, token, coalesce("leaseUntil" > now(), false) AS "leaseHeld", "expiresAt" <= now() AS expired,
             "committedLines", "committedHash", "committedHits", "fallbackHost", "bodyHash", report
      FROM traffic_imports WHERE "workspaceId" = ${workspaceId}::uuid AND key = ${key} FOR UPDATE`;
    if (!row) throw new ImportInProgressError("An import with this Idempotency-Key was just started: send the request again.");
    if (row.state === "running" && row.leaseHeld) {
      throw new ImportInProgressError(
        `An import with this Idempotency-Key is still running (${row.committedLines.toLocaleString("en-US")} lines stored so far). Send it again once it has ended: its report is kept for 24 hours, and a request that broke off resumes where it stopped.`,
      );
    }
    // 24 hours without a chunk stored, or a request refused before it stored any line (a format
    // not recognised, a CSV header without the columns): the key starts a new import, with this
    // request's options, whose chunks the old one's token cannot commit.
    if (row.expired || (row.state === "interrupted" && row.committedLines === 0)) {
      const [fresh] = await tx.$queryRaw<{ id: string; token: number }[]>`
        UPDATE traffic_imports SET "requestHash" = ${requestHash}, "fallbackHost" = ${storedHost(fallbackHost)}, state = 'running', token = token + 1, "leaseUntil" = ${leaseEnd()},
          "committedLines" = 0, "committedHash" = NULL, "committedHits" = 0, "bodyHash" = NULL, report = NULL,
          "createdAt" = now(), "expiresAt" = ${keyEnd()}
        WHERE id = ${row.id}::uuid RETURNING id, token`;
      return { kind: "claimed", ...fresh!, committedLines: 0, committedHash: null, committedHits: 0, fallbackHost };
    }
    if (row.requestHash !== requestHash) throw new IdempotencyMismatchError("This Idempotency-Key was already used for an import with another format or host. Use a new key for a new log.");
    if (row.state === "done") return { kind: "ended", id: row.id, report: row.report as Report, bodyHash: row.bodyHash! };
    const [taken] = await tx.$queryRaw<{ token: number }[]>`
      UPDATE traffic_imports SET state = 'running', token = token + 1, "leaseUntil" = ${leaseEnd()}, "expiresAt" = ${keyEnd()}
      WHERE id = ${row.id}::uuid RETURNING token`;
    return { kind: "claimed", id: row.id, token: taken!.token, committedLines: row.committedLines, committedHash: row.committedHash, committedHits: row.committedHits, fallbackHost: readHost(row.fallbackHost) };
  });
}

/** The request that claimed the import no longer holds it (another took it over after its lease passed). */
function lostImport(): ImportInProgressError {
  return new ImportInProgressError("Another request with this Idempotency-Key took this import over (this one had stopped renewing it): nothing more is stored by this one.");
}

/**
 * In a chunk's transaction: the chunk's hits complete the lines up to `lines`, whose hash is
 * `hash`. Throws (rolling the chunk back) when the import was taken over.
 */
export async function recordChunk(tx: Tx, claim: ClaimedImport, chunk: { hits: number; lines: number; hash: string }): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE traffic_imports SET "committedLines" = ${chunk.lines}, "committedHash" = ${chunk.hash}, "committedHits" = "committedHits" + ${chunk.hits},
      "leaseUntil" = ${leaseEnd()}, "expiresAt" = ${keyEnd()}
    WHERE id = ${claim.id}::uuid AND token = ${claim.token} AND state = 'running'`;
  if (!updated) throw lostImport();
}

/**
 * Keeps the import's lease while its lines come (a long stretch of browsers' requests stores
 * nothing); stop() ends it. A body that stalls (a connection gone without a word) renews nothing,
 * so the lease lapses and the same request sent again takes the import over.
 */
export function renewLease(claim: ClaimedImport, linesRead: () => number): { stop: () => void } {
  const lease = env().BEACON_TRAFFIC_IMPORT_LEASE_SECONDS;
  let seen = linesRead();
  const timer = setInterval(() => {
    const now = linesRead();
    if (now === seen) return;
    seen = now;
    void db()
      .$executeRaw`UPDATE traffic_imports SET "leaseUntil" = ${leaseEnd()} WHERE id = ${claim.id}::uuid AND token = ${claim.token} AND state = 'running'`
      .catch(() => {}); // a missed renewal only shortens the lease; the next chunk's commit checks the token
  }, (lease * 1000) / 4);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The import ended: its report (with every hit it stored, over all its requests) is kept for a request sent again. */
export async function finishImport<Report extends { stored: number }>(claim: ClaimedImport, report: Report, bodyHash: string): Promise<Report> {
  return transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ committedHits: number }[]>`
      SELECT "committedHits" FROM traffic_imports WHERE id = ${claim.id}::uuid AND token = ${claim.token} AND state = 'running' FOR UPDATE`;
    if (!row) throw lostImport();
    const ended = { ...report, stored: row.committedHits };
    await tx.$executeRaw`
      UPDATE traffic_imports SET state = 'done', "leaseUntil" = NULL, "bodyHash" = ${bodyHash}, report = ${JSON.stringify(ended)}::jsonb WHERE id = ${claim.id}::uuid`;
    return ended;
  });
}

/** The import stopped with an error: a request sent again resumes it at once (no lease to wait out). */
export async function interruptImport(claim: ClaimedImport): Promise<void> {
  await db().$executeRaw`UPDATE traffic_imports SET state = 'interrupted', "leaseUntil" = NULL WHERE id = ${claim.id}::uuid AND token = ${claim.token} AND state = 'running'`;
}
