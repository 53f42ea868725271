// Share links and agency branding as the browser sends them. No server-only code: the Share
// dialog and the settings form use the same limits.
import { z } from "zod";
import type { ChartName } from "@/lib/analytics/charts";
import { MARKET_KEY } from "@/lib/analytics/markets";
import { RANGE_PRESETS } from "@/lib/analytics/schemas";
import { text } from "@/lib/validation/text";
import { dayInput } from "@/lib/validation/day";
import { editedAt } from "@/lib/validation/edit-version";

/** A link lives at most this long; it cannot be extended, only replaced. */
export const MAX_SHARE_LINK_DAYS = 90;
export const SHARE_EXPIRY_PRESETS = [7, 30, 90] as const;

/** The Overview's charts a shared report shows; nothing else of the workspace is read for it. */
export const SHARED_CHARTS = ["kpis", "visibility", "share-of-voice", "positions", "markets", "top-domains"] as const satisfies readonly ChartName[];
export type SharedChart = (typeof SHARED_CHARTS)[number];

const day = dayInput();

/**
 * The period a link shows: rolling (the last 7, 30 or 90 days up to the day it is opened, as the
 * dashboard's presets) or fixed days, as the dashboard's custom range.
 */
export const sharePeriod = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("rolling"),
    days: z.number().int().refine((d) => (RANGE_PRESETS as readonly number[]).includes(d), `A rolling period is the last ${RANGE_PRESETS.join(", ")} days`),
  }),
  z.object({ kind: z.literal("fixed"), from: day, to: day }),
]);

export const createShareLinkInput = z.object({
  brandId: z.uuid("Choose a brand"),
  label: text({ max: 100, label: "A label" }).default(""),
  providers: z.array(z.uuid("Unknown provider")).max(100).default([]),
  tags: z.array(text({ min: 1, max: 100, label: "A tag" })).max(100).default([]),
  markets: z.array(z.string().regex(MARKET_KEY, "Use a market like DE:de")).max(100).default([]),
  period: sharePeriod,
  expiresInDays: z
    .number({ error: "Choose how long the link works" })
    .int("Choose a whole number of days")
    .min(1, "A link works for at least 1 day")
    .max(MAX_SHARE_LINK_DAYS, `A link works for at most ${MAX_SHARE_LINK_DAYS} days`),
});
export type CreateShareLinkInput = z.input<typeof createShareLinkInput>;

export const revokeShareLinkInput = z.object({ shareLinkId: z.uuid("Unknown link") });

export const MAX_LOGO_BYTES = 200 * 1024;
/** Raster formats only: an SVG can carry script. */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export const brandingInput = z.object({
  agencyName: text({ max: 100, label: "The agency name" }).transform((v) => v || null),
  /**
   * The logo as base64: undefined keeps the current one, null removes it. The length bound is
   * the base64 of MAX_LOGO_BYTES plus padding; the bytes themselves are checked on the server.
   */
  logo: z
    .string()
    .max(Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 4, `The logo may be at most ${MAX_LOGO_BYTES / 1024} KB`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "The logo must be base64")
    .nullable()
    .optional(),
  /** The branding's updatedAt as the form read it, null when there was none yet (lib/validation/edit-version.ts). */
  version: editedAt.nullable(),
});
export type BrandingInput = z.input<typeof brandingInput>;
