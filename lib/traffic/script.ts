// The script a site adds (docs/traffic.md): it reports the page's address and document.referrer
// to the Beacon it was loaded from, keyed by its data-site attribute, and nothing else. No
// cookies, no storage, no identifiers: the server decides whether an assistant sent the visit.
// sendBeacon's string body goes out as text/plain, a request that needs no CORS preflight; where
// sendBeacon is missing or refuses, an image pixel carries the same fields in its query.
export const TRACKER_SCRIPT =
  '(function(d,n){var s=d.currentScript,k=s&&s.getAttribute("data-site");if(!k)return;' +
  "var b=s.src,v={k:k,u:location.href,r:d.referrer};" +
  'if(n.sendBeacon&&n.sendBeacon(new URL("/api/t",b),JSON.stringify(v)))return;' +
  'new Image().src=new URL("/t.gif?"+new URLSearchParams(v),b)})(document,navigator);\n';

/** A transparent 1x1 GIF: the pixel fallback's answer. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
