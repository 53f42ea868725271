import { brandsMidReanalysis } from "@/lib/jobs/analysis-runs";
import "server-only";
import { readChart, sharedFilters } from "@/lib/analytics/read-chart";
import { filterSearchParams, isoDay, lastDays, type AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";
import { SHARED_CHARTS, type SharedChart } from "@/lib/share-links/schemas";
import { hashShareToken, isShareTokenShaped } from "@/lib/share-links/tokens";


type LiveLink = {
  id: string;
  workspaceId: string;
  brandId: string;
  providerConfigIds: string[];
  tags: string[];
  markets: string[];
  rangeDays: number | null;
  fromDay: Date | null;
  toDay: Date | null;
  expiresAt: Date;
};

/**
 * The live link a token stands for, or null when it is unknown, revoked, expired (by the
 * database clock) or its brand is gone (the link went with it). Callers show the same "not
 * valid" page for every null, so nothing tells a revoked link from one that never existed.
 * `countView` records the opening in the same statement.
 */
export async function findLiveShareLink(token: string, options: { countView: boolean }): Promise<LiveLink | null> {
  if (!isShareTokenShaped(token)) return null;
  const hash = hashShareToken(token);
  const rows = options.countView
    ? await db().$queryRaw<LiveLink[]>`
        UPDATE share_links SET "viewCount" = "viewCount" + 1, "lastViewedAt" = now()
         WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL AND "expiresAt" > now()
     RETURNING id::text, "workspaceId"::text, "brandId"::text, "providerConfigIds"::text[], tags, markets, "rangeDays", "fromDay", "toDay", "expiresAt"`
    : await db().$queryRaw<LiveLink[]>`
        SELECT id::text, "workspaceId"::text, "brandId"::text, "providerConfigIds"::text[], tags, markets, "rangeDays", "fromDay", "toDay", "expiresAt"
          FROM share_links WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL AND "expiresAt" > now()`;
  return rows[0] ?? null;
}

/** The dashboards' filter a link stands for today: a rolling period ends on today's date (UTC). */
export function shareLinkFilter(link: Pick<LiveLink, "brandId" | "providerConfigIds" | "tags" | "markets" | "rangeDays" | "fromDay" | "toDay">, now = new Date()): AnalyticsFilterInput {
  const period = link.rangeDays ? lastDays(link.rangeDays, now) : { from: isoDay(link.fromDay!), to: isoDay(link.toDay!) };
  return { brandId: link.brandId, providers: link.providerConfigIds, tags: link.tags, markets: link.markets, ...period };
}

// Dates travel as ISO strings and bigints as numbers, exactly as GET /api/analytics/<chart> sends them.
const asWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The report as the public page may carry it: every UUID, as a value or as a key (the brand's,
 * its competitors', the providers' in the filter and the charts), replaced by an alias that means
 * something only inside this report ("ref1", "ref2", ... in order of appearance). The same id gets
 * the same alias everywhere, so the charts still join their series to the filter and legends;
 * the page then holds no id of the workspace's rows, only the token and the numbers shown.
 */
export function withoutInternalIds<T>(value: T): T {
  const aliases = new Map<string, string>();
  const alias = (text: string) => {
    if (!UUID.test(text)) return text;
    let known = aliases.get(text);
    if (!known) aliases.set(text, (known = `ref${aliases.size + 1}`));
    return known;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return alias(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [alias(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

export type SharedReport = {
  brandName: string;
  /** The link's filter with its ids aliased (withoutInternalIds): a key for the charts' data, never sent to the server. */
  filter: AnalyticsFilterInput;
  rolling: number | null;
  providers: string[];
  expiresAt: string;
  agency: { name: string | null; hasLogo: boolean };
  charts: Record<SharedChart, unknown>;
  /**
   * The brand's past answers are being re-analysed (or that failed): the numbers mix answers
   * analysed with earlier and current settings, as the dashboards' notice says. Only this flag
   * reaches the page, not the run's progress or error.
   */
  reanalysing: boolean;
};

/**
 * What /share/<token> shows, and all the page carries: the link's brand Overview for its period
 * and filter, its ids aliased (withoutInternalIds), read through
 * readChart (the dashboards' one path from filter to numbers) scoped by the link's own
 * workspace and brand. Authorizes by the token itself: null for any link that is not live, and
 * for a link whose provider was since deleted (its filter no longer means what it did).
 */
export async function openSharedReport(token: string): Promise<SharedReport | null> {
  const link = await findLiveShareLink(token, { countView: true });
  if (!link) return null;
  const filter = shareLinkFilter(link);
  const params = filterSearchParams(filter);
  const filters = sharedFilters();
  try {
    const [brand, branding, providers, midReanalysis, ...results] = await Promise.all([
      db().brand.findFirst({ where: { id: link.brandId, workspaceId: link.workspaceId }, select: { name: true } }),
      db().workspaceBranding.findUnique({ where: { workspaceId: link.workspaceId }, select: { agencyName: true, logoType: true } }),
      db().providerConfig.findMany({ where: { workspaceId: link.workspaceId, id: { in: link.providerConfigIds } }, select: { name: true }, orderBy: { name: "asc" } }),
      brandsMidReanalysis(link.workspaceId),
      ...SHARED_CHARTS.map((chart) => readChart(link.workspaceId, chart, new URLSearchParams(params), filters)),
    ]);
    if (!brand) return null;
    const shown = withoutInternalIds({ filter, charts: Object.fromEntries(SHARED_CHARTS.map((chart, i) => [chart, asWire(results[i])])) as Record<SharedChart, unknown> });
    return {
      brandName: brand.name,
      filter: shown.filter,
      rolling: link.rangeDays,
      providers: providers.map((p) => p.name),
      expiresAt: link.expiresAt.toISOString(),
      agency: { name: branding?.agencyName ?? null, hasLogo: !!branding?.logoType },
      charts: shown.charts,
      reanalysing: midReanalysis.has(link.brandId),
    };
  } catch (error) {
    // A brand or provider deleted since: the same answer as any other link that is not valid.
    if (error instanceof UserError && error.status === 404) return null;
    throw error;
  }
}
