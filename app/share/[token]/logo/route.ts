import { readSharedLogo } from "@/lib/share-links/branding";

export const dynamic = "force-dynamic";

/**
 * GET /share/<token>/logo: the agency logo of the workspace behind a live share link. Only PNG,
 * JPEG and WebP are ever stored (checked by their bytes); nosniff and a CSP that allows nothing
 * keep a browser from treating the bytes as anything but that image.
 */
export async function GET(_request: Request, route: { params: Promise<{ token: string }> }): Promise<Response> {
  const logo = await readSharedLogo((await route.params).token);
  if (!logo) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "content-type": logo.type,
      "content-security-policy": "default-src 'none'",
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}
