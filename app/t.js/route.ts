import { TRACKER_SCRIPT } from "@/lib/traffic/script";

/**
 * The visits script sites embed (`<script src="…/t.js" data-site="KEY" async>`). Static, so
 * browsers and proxies may cache it for an hour; any site may load it.
 */
export function GET() {
  return new Response(TRACKER_SCRIPT, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=3600",
      "cross-origin-resource-policy": "cross-origin",
      "access-control-allow-origin": "*",
    },
  });
}
