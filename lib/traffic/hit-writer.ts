import "server-only";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hitsInput, insertRawHits, rollupsOfGroups, type StoredHit } from "@/lib/traffic/store";

type Tx = Prisma.TransactionClient;

export type HitWriterLimits = {
  /** Hits per transaction: a chunk closes once it holds this many. */
  chunkHits: number;
  /** A chunk closes when no batch came for this long (a slow upload must not hold a transaction open). */
  idleMs: number;
  /** Batches received and not yet written before add() waits. */
  ahead: number;
};

// A chunk of 250,000 hits is about 40 MB of batches kept for a retry and a few seconds of
// PostgreSQL; the longer a chunk, the more hits share a rollup row (a log of one day names each
// page's week and month once per chunk). While a chunk adds itself to the rollups (2-3 s for a
// full one), parsing goes on up to `ahead` batches (200,000 hits, another 30 MB or so), so the
// parser seldom waits. The server ends a session idle in a transaction after 15 s
// (lib/db/prisma.ts): a chunk closes long before.
const DEFAULT_LIMITS: HitWriterLimits = { chunkHits: 250_000, idleMs: 2_000, ahead: 40 };
/** A chunk's transaction may take this long on a loaded machine before Prisma ends it. */
const CHUNK_TIMEOUT_MS = 15 * 60_000;

/**
 * Writes an import's hits in chunks, each ONE transaction: the chunk's batches go into the raw
 * rows (and a temporary table) as they come, one statement each, while the importer parses the
 * next; when the chunk closes, its hits are grouped once and added to traffic_daily and its
 * rollups, and the transaction commits. So the rollups always equal the raw rows stored (a crash
 * or failure loses the open chunk, raw rows and rollups alike, and keeps the committed ones), and
 * a rollup row gets one upsert per chunk instead of one per batch (the upserts were 85 % of an
 * import's PostgreSQL time). Two imports into the same pages stay exact: a chunk adds its sums
 * to what the rows hold when it upserts, in key order (see rollupsOfGroups). Chunks are written
 * one after the other on one connection; a chunk that fails for a reason withRetries accepts
 * (a deadlock) is written again from its batches, which it keeps until it commits.
 */
export class HitWriter<Mark = undefined> {
  /** Hits in committed chunks. */
  stored = 0;
  private chunk: Chunk<Mark> | null = null;
  /** The last chunk's commit: the next chunk starts after it. */
  private previous: Promise<void> = Promise.resolve();
  private unwritten = 0;
  private failure: { error: unknown } | null = null;
  private waiters: (() => void)[] = [];
  private readonly limits: HitWriterLimits;

  constructor(
    private readonly workspaceId: string,
    limits: Partial<HitWriterLimits> = {},
    /**
     * Runs last in each chunk's transaction, with the chunk's hits and the mark of its last batch
     * (the importer may still import; how far the import got): a throw rolls the chunk back and
     * ends the import.
     */
    private readonly beforeCommit: (tx: Tx, chunk: { hits: number; mark: Mark | undefined }) => Promise<void> = async () => {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /**
   * Queues a batch; resolves once at most `ahead` batches wait to be written. Throws a failed
   * chunk's error. `mark`: what the batch completes (the importer's line), given to beforeCommit.
   */
  async add(hits: StoredHit[], mark?: Mark): Promise<void> {
    this.throwIfFailed();
    if (!hits.length) return;
    if (!this.chunk || this.chunk.closed) this.chunk = this.open();
    this.unwritten += 1;
    this.chunk.push(hits, mark);
    if (this.chunk.hits >= this.limits.chunkHits) this.chunk.close();
    while (this.unwritten > this.limits.ahead && !this.failure) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.throwIfFailed();
  }

  /** Closes the open chunk and resolves when every chunk has committed (or throws the first failure). */
  async end(): Promise<void> {
    this.chunk?.close();
    this.chunk = null;
    await this.previous;
  }

  private open(): Chunk<Mark> {
    const chunk = new Chunk<Mark>(this.workspaceId, this.limits.idleMs, () => {
      this.unwritten -= 1;
      this.wake();
    });
    const done = this.previous.then(() =>
      transaction(
        async (tx) => {
          await chunk.write(tx);
          await this.beforeCommit(tx, { hits: chunk.hits, mark: chunk.mark });
        },
        { timeoutMs: CHUNK_TIMEOUT_MS },
      ),
    );
    this.previous = done.then(
      () => void (this.stored += chunk.hits),
      (error: unknown) => {
        this.failure ??= { error };
        this.wake();
        throw error;
      },
    );
    // Seen by the next add() or by end(); until then its rejection must not count as unhandled.
    this.previous.catch(() => {});
    return chunk;
  }

  private wake() {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private throwIfFailed() {
    if (this.failure) throw this.failure.error;
  }
}

/** One transaction's batches; write() runs again from the first batch when the transaction is retried. */
class Chunk<Mark> {
  hits = 0;
  closed = false;
  /** The last batch's mark. */
  mark: Mark | undefined;
  private readonly batches: StoredHit[][] = [];
  /** Batches written at least once (a retry writes them again without counting them). */
  private firstWritten = 0;
  private signal: (() => void) | null = null;

  constructor(
    private readonly workspaceId: string,
    private readonly idleMs: number,
    private readonly onWritten: () => void,
  ) {}

  push(batch: StoredHit[], mark: Mark | undefined) {
    this.batches.push(batch);
    this.hits += batch.length;
    this.mark = mark;
    this.signal?.();
  }

  close() {
    this.closed = true;
    this.signal?.();
  }

  async write(tx: Tx): Promise<void> {
    const workspace = await tx.$queryRaw<unknown[]>`SELECT 1 FROM workspaces WHERE id = ${this.workspaceId}::uuid FOR KEY SHARE`;
    if (!workspace.length) throw new NotFoundError("That workspace does not exist (any more).");
    // Without WAL, index or other sessions: the chunk's hits wait here to be grouped once.
    await tx.$executeRaw`CREATE TEMPORARY TABLE traffic_import_hits (day date, domain text, path text, crawler text, verification text, error boolean) ON COMMIT DROP`;
    for (let i = 0; ; i++) {
      while (i >= this.batches.length && !this.closed) await this.nextBatch();
      if (i >= this.batches.length) break;
      await tx.$executeRaw`
        WITH input AS (SELECT t.* FROM ${hitsInput(this.batches[i]!)}
        ), raw AS (${insertRawHits(this.workspaceId)}
        )
        INSERT INTO traffic_import_hits (day, domain, path, crawler, verification, error)
        SELECT at::date, domain, path, crawler, verification, status >= 400 FROM input`;
      if (i === this.firstWritten) {
        this.firstWritten += 1;
        this.onWritten();
      }
    }
    await pausePoint("traffic:import-before-rollups", { tx });
    await tx.$executeRaw`
      WITH g AS (
        SELECT day, domain, path, crawler, verification, count(*)::int AS hits, (count(*) FILTER (WHERE error))::int AS errors
        FROM traffic_import_hits
        GROUP BY 1, 2, 3, 4, 5
      ), ${rollupsOfGroups(this.workspaceId)}`;
  }

  /** Waits for a batch or the chunk's close; closes the chunk when none came within idleMs. */
  private nextBatch(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        // Closed at once, so a batch that comes now goes to the next chunk, not this finished one.
        this.closed = true;
        this.signal = null;
        resolve();
      }, this.idleMs);
      this.signal = () => {
        clearTimeout(timer);
        this.signal = null;
        resolve();
      };
    });
  }
}
