import "server-only";
import { createHash } from "node:crypto";
import { marketKey, marketLabel, promptMarketLabel } from "@/lib/analytics/markets";
import type { CheckStatus } from "@/lib/captures/states";
import { checkTally, countsOf } from "@/lib/captures/check-counts";
import { latestCheckOperation } from "@/lib/checks/operations";
import { spentByCheck } from "@/lib/checks/spent";
import { startedBy, userNames } from "@/lib/checks/started-by";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { NotFoundError, UserError } from "@/lib/errors";
import {
  encodeCells,
  GRID_ERROR_CHARS,
  GRID_TEXT_CHARS,
  rowsPerPage,
  type GridCell,
  type ProgressAnswer,
  type ProgressGrid,
  type ProgressHeader,
} from "@/lib/checks/progress-state";

/** A version the server cannot use: malformed, or handed out for another check. */
export class InvalidVersionError extends UserError {
  override readonly code = "invalid_version";
}

// A version is "p2.<check id>.<page>.<grid hash>.<rows hash>.<snapshot>": the page it was read
// for, a hash of the grid the browser was given, a hash of the page's prompt ids (a market filter
// puts other prompts on the same page number: their cells are then sent in full), and the
// pg_snapshot the cells were read under. It carries no secret: what it names is the caller's own
// check, and a forged snapshot could only hide changes from the forger's own page.
type Version = { checkId: string; page: number; gridHash: string; rows: string; snapshot: string };

const MAX_XID8 = 2n ** 64n - 1n;
const SNAPSHOT = /^(\d{1,20}):(\d{1,20}):((?:\d{1,20}(?:,\d{1,20})*)?)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function parseVersion(text: string, checkId: string): Version {
  const invalid = () => new InvalidVersionError("This progress version is not valid. Reload the page.", { field: "version" });
  const [tag, id, page, gridHash, rows, snapshot, ...rest] = text.split(".");
  const hash = /^[0-9a-f]{16}$/;
  if (tag !== "p2" || rest.length || !id || !UUID.test(id) || !page || !/^[1-9]\d{0,6}$/.test(page) || !gridHash || !hash.test(gridHash) || !rows || !hash.test(rows) || !snapshot) throw invalid();
  const match = SNAPSHOT.exec(snapshot);
  if (!match) throw invalid();
  const [xmin, xmax] = [BigInt(match[1]!), BigInt(match[2]!)];
  const xip = match[3] ? match[3].split(",").map(BigInt) : [];
  // As PostgreSQL's pg_snapshot input reads it (else the query, not this check, would refuse it:
  // a 500): 64-bit ids, none 0, xmin <= xmax, the in-progress ids ascending within [xmin, xmax).
  if (xmin < 1n || xmax > MAX_XID8 || xmin > xmax || xip.some((x, i) => x < xmin || x >= xmax || (i > 0 && x < xip[i - 1]!))) throw invalid();
  if (id !== checkId) throw new InvalidVersionError("This progress version belongs to another check.", { field: "version" });
  return { checkId: id, page: Number(page), gridHash, rows, snapshot };
}

const formatVersion = (v: Version) => `p2.${v.checkId}.${v.page}.${v.gridHash}.${v.rows}.${v.snapshot}`;

const hash16 = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
const hashGrid = (grid: ProgressGrid) => hash16(grid);

const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

type CellRow = {
  snapshot: string;
  full: boolean;
  id: string | null;
  promptId: string;
  providerConfigId: string;
  sample: number;
  status: GridCell["status"];
  attemptCount: number;
  latencyMs: number | null;
  costMicros: bigint;
  lastError: string | null;
  waitingFor: GridCell["waitingFor"];
  brandNamed: boolean | null;
  brandPosition: number | null;
};

/**
 * The page's cells changed since `since` (all of them without it), and the snapshot they were
 * read under, in ONE statement: pg_current_snapshot() is the statement's own snapshot, the one
 * the scan of captures uses. A row is sent when the transaction that last changed its grid
 * fields ("changedXid", migration 20261201120000) is not visible in `since`: it had not
 * committed when that poll read, whether it started before or after. The brand's mention comes
 * with its capture: written in the transaction that records the answer (beacon_succeed), and
 * rewritten by a re-analysis, which stamps "analyzedAt" (a field the trigger watches). A `since` from the future
 * (a database restored from a backup) gets everything.
 */
async function readCells(checkId: string, promptIds: string[], since: string | null) {
  const rows = await db().$queryRaw<CellRow[]>`
    SELECT s.snapshot::text AS snapshot, s.full, c.id, c."promptId", c."providerConfigId", c.sample, c.status,
           c."attemptCount", c."latencyMs", c."costMicros", c."lastError", c."waitingFor",
           m.mentioned AS "brandNamed", m.position AS "brandPosition"
      FROM (SELECT pg_current_snapshot() AS snapshot,
                   (${since}::pg_snapshot IS NULL OR pg_snapshot_xmax(${since}::pg_snapshot) > pg_snapshot_xmax(pg_current_snapshot())) AS full) s
      LEFT JOIN captures c
        ON c."checkId" = ${checkId}::uuid AND c."promptId" = ANY(${promptIds}::uuid[])
       AND (s.full OR NOT pg_visible_in_snapshot(c."changedXid", ${since}::pg_snapshot))
      LEFT JOIN LATERAL (SELECT mm.mentioned, mm.position FROM mentions mm
                          WHERE mm."captureId" = c.id AND mm.kind = 'brand' AND mm."brandId" = c."brandId" LIMIT 1) m ON true`;
  const first = rows[0]!;
  return { snapshot: first.snapshot, full: first.full, cells: rows.filter((r) => r.id !== null) };
}

/**
 * The check page's poll: the check's counts and state always; the grid of `page` (prompt texts,
 * providers, who started it) when the browser's copy differs from the version it sent; and the
 * page's cells changed since that version (all of them without one, or for another page).
 * Scoped to `workspaceId`; the caller authorizes.
 */
export async function checkProgress(workspaceId: string, checkId: string, request: { page: number; version?: string | null; market?: string | null }): Promise<ProgressAnswer> {
  const since = request.version ? parseVersion(request.version, checkId) : null;
  // The check's latest operation is read before the check, never beside it: the page stops
  // polling a finished check whose operation is done (pollsAgain), and a retry reopens the check
  // in a transaction that commits before its operation is marked completed. Read in this order,
  // an answer with the retry done shows the check reopened; read the other way (or at once on
  // two connections), it could show the status from before the retry and stop the polls of a
  // check that runs again (tests/integration/check-operations.test.ts).
  const operation = await latestCheckOperation(checkId);
  await pausePoint("progress:between-header-reads", { checkId });
  const check = await db().check.findFirst({ where: { id: checkId, workspaceId }, include: { brand: { select: { name: true } } } });
  if (!check) throw new NotFoundError("That check does not exist in this workspace.");

  const [providers, promptOrder, tally, spent, names] = await Promise.all([
    db().$queryRaw<{ id: string; name: string; model: string }[]>`
      SELECT p.id, p.name, p.model FROM provider_configs p
       WHERE p.id IN (SELECT "providerConfigId" FROM captures WHERE "checkId" = ${checkId}::uuid)
       ORDER BY p.name, p.id`,
    db().$queryRaw<{ id: string; country: string | null; language: string | null }[]>`
      SELECT p.id, p.country, p.language FROM prompts p
       WHERE p.id IN (SELECT "promptId" FROM captures WHERE "checkId" = ${checkId}::uuid)
       ORDER BY p."createdAt", p.id`,
    checkTally(checkId),
    spentByCheck([checkId]),
    userNames([check.startedById]),
  ]);

  const marketOf = new Map(promptOrder.map((p) => [p.id, marketKey(p.country, p.language)]));
  const counts = new Map<string, number>();
  for (const key of marketOf.values()) counts.set(key, (counts.get(key) ?? 0) + 1);
  const markets = counts.size > 1 ? [...counts].map(([key, prompts]) => ({ key, label: marketLabel(key), prompts })) : [];
  const market = request.market && counts.has(request.market) ? request.market : null;
  const shown = market ? promptOrder.filter((p) => marketOf.get(p.id) === market) : promptOrder;

  const rows = rowsPerPage(providers.length, check.samples);
  const pages = Math.max(1, Math.ceil(shown.length / rows));
  const page = Math.min(Math.max(1, request.page), pages);
  const pageIds = shown.slice((page - 1) * rows, page * rows).map((p) => p.id);
  const texts = await db().prompt.findMany({ where: { id: { in: pageIds }, workspaceId }, select: { id: true, text: true } });
  const text = new Map(texts.map((p) => [p.id, p.text]));

  const grid: ProgressGrid = {
    brand: check.brand.name,
    startedBy: startedBy(check, names),
    startedById: check.startedById,
    createdAt: check.createdAt,
    samples: check.samples,
    page,
    pages,
    rowsPerPage: rows,
    totalPrompts: shown.length,
    prompts: pageIds.map((id) => cut(text.get(id) ?? "", GRID_TEXT_CHARS)),
    markets,
    market,
    rowMarkets: markets.length ? pageIds.map((id) => promptMarketLabel(marketOf.get(id)!)) : [],
    providers: providers.map((p) => ({ name: p.name, model: p.model })),
  };
  const gridHash = hashGrid(grid);
  // The same page of another market holds other prompts: its cells are sent in full.
  const rowsHash = hash16(pageIds);
  const samePage = since !== null && since.page === page && since.rows === rowsHash;
  const read = await readCells(checkId, pageIds, samePage ? since.snapshot : null);

  const rowOf = new Map(pageIds.map((id, i) => [id, i]));
  const colOf = new Map(providers.map((p, i) => [p.id, i]));
  const { cells, errors } = encodeCells(
    read.cells.map((c) => ({
      id: c.id!,
      row: rowOf.get(c.promptId)!,
      col: colOf.get(c.providerConfigId)!,
      sample: c.sample,
      status: c.status,
      attemptCount: c.attemptCount,
      latencyMs: c.latencyMs,
      costMicros: Number(c.costMicros),
      lastError: c.lastError === null ? null : cut(c.lastError, GRID_ERROR_CHARS),
      waitingFor: c.waitingFor,
      brandNamed: c.brandNamed,
      brandPosition: c.brandPosition,
    })),
  );
  const header: ProgressHeader = {
    id: check.id,
    status: check.status as CheckStatus,
    finishedAt: check.finishedAt,
    cancelRequested: check.cancelRequestedAt !== null,
    reservedMicros: Number(tally.reservedMicros),
    chargedMicros: Number(check.chargedMicros),
    spentMicros: Number(spent.get(checkId) ?? 0n),
    counts: countsOf(tally),
    operation,
  };
  return {
    version: formatVersion({ checkId, page, gridHash, rows: rowsHash, snapshot: read.snapshot }),
    check: header,
    ...(since?.gridHash === gridHash ? {} : { grid }),
    full: read.full,
    cells,
    errors,
  };
}
