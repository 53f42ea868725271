import "server-only";
import { discoverUntrackedBrands } from "@/lib/alerts/discovery";
import { captureScope, num } from "@/lib/analytics/filter";
import { testKpiChange } from "@/lib/analytics/kpi-changes";
import { comparedSums } from "@/lib/analytics/kpis";
import { rollupScope } from "@/lib/analytics/rollups";
import { ownPagesByPeriod } from "@/lib/analytics/source-categories";
import { budgetStatus } from "@/lib/billing/budget";
import { db, readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { onOwnSites } from "@/lib/traffic/store";

/**
 * What an alert kind's judge reads with, handed to it by lib/alerts/evaluate.ts: the kinds are
 * imported by the rule form in the browser too, so they cannot import the database themselves.
 * A new kind that needs another server read adds it here.
 */
export const alertReads = {
  db,
  /** The read replica when configured (the dashboards' numbers). */
  readDb,
  sql: Prisma.sql,
  /** A raw query's count or sum (bigint, numeric text or null) as a number. */
  num,
  empty: Prisma.empty,
  rollupScope,
  captureScope,
  /** Two periods' sums, all answers and like with like (the Overview's tiles compare the same way). */
  comparedSums,
  /** The headline numbers' test, shared with the Overview's tiles (lib/analytics/kpi-changes.ts). */
  testKpiChange,
  budgetStatus,
  discoverUntrackedBrands,
  /** The own_page_dropped alert's answers and own pages per period (rollups). */
  ownPagesByPeriod,
  /** Stored crawls' and visits' rows (host `column`) on the workspace's own sites now, as the Traffic page reads them. */
  onOwnSites,
};

export type AlertReads = typeof alertReads;
