import { assertCan, canView } from "@/lib/permissions/permissions";
import { getWorkspaceContext } from "@/lib/auth/session";
import { readLogo } from "@/lib/share-links/branding";

export const dynamic = "force-dynamic";

/**
 * GET /api/branding/logo: the signed-in member's workspace logo, for the printed Overview. Only
 * PNG, JPEG and WebP are stored (checked by their bytes); nosniff and a CSP that allows nothing.
 */
export async function GET(): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return new Response("Sign in first", { status: 401 });
  assertCan(canView(ctx));
  const logo = await readLogo(ctx.workspace.id);
  if (!logo) return new Response("No logo", { status: 404 });
  return new Response(new Uint8Array(logo.bytes), {
    headers: { "content-type": logo.type, "content-security-policy": "default-src 'none'", "x-content-type-options": "nosniff", "cache-control": "private, no-store" },
  });
}
