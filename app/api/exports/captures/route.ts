import { resolveFilter } from "@/lib/analytics/filter";
import { exportCaptures, exportRowCount } from "@/lib/analytics/export";
import { analyticsFilterInput, EXPORT_FORMATS, EXPORT_VARIANTS, filterFromSearchParams, isoDay, addDays, type ExportVariant } from "@/lib/analytics/schemas";
import { filterRefusal } from "@/lib/api/filter-params";
import { refuseOddFilterParams } from "@/lib/analytics/filter-params";
import { apiError } from "@/lib/api/handler";
import { parseOrThrow } from "@/lib/validation/parse";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { getWorkspaceContext } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "brand";

/**
 * GET /api/exports/captures?format=csv|json&variant=full|summary&brand=&providers=&tags=&from=&to=
 * (or range=7|30|90; unknown or repeated parameters, another range, or a range with dates: 400)
 * The signed-in member's workspace only: the succeeded captures of the dashboards' filter, oldest
 * first, streamed, at most 100,000 rows (X-Total-Count says how many, X-Truncated whether more
 * matched). `summary` leaves out the answers and cited pages (a small file); `full`, the default,
 * has them. CSV starts with the UTF-8 byte-order mark so spreadsheets read it as UTF-8.
 */
export async function GET(request: Request): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return apiError(401, "unauthorized", "Sign in to export captures.");
  const params = new URL(request.url).searchParams;
  const format = params.get("format") ?? "csv";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return apiError(400, "validation_error", "format must be csv or json", "format");
  const variant = params.get("variant") ?? "full";
  if (!(EXPORT_VARIANTS as readonly string[]).includes(variant)) return apiError(400, "validation_error", "variant must be full or summary", "variant");
  try {
    assertCan(canView(ctx));
    refuseOddFilterParams(params, ["format", "variant"]);
    const input = parseOrThrow(analyticsFilterInput, filterFromSearchParams(params));
    const resolved = await resolveFilter(ctx.workspace.id, input);
    if (!resolved) return apiError(404, "not_found", "This workspace tracks no brand yet: add one under Brands.");
    const { rows, truncated } = await exportRowCount(resolved.filter);
    const suffix = variant === "summary" ? "-summary" : "";
    const name = `beacon-captures-${slug(resolved.brand.name)}-${isoDay(input.from)}-to-${isoDay(addDays(input.to, -1))}${suffix}.${format}`;
    return new Response(exportCaptures(resolved.filter, format as "csv" | "json", variant as ExportVariant), {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-total-count": String(rows),
        "x-truncated": String(truncated),
      },
    });
  } catch (error) {
    const refusal = filterRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}
