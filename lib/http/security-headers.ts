// Headers on every response (next.config.ts `headers()`). Beacon is a private dashboard that
// loads nothing from other origins, so the policy allows its own origin only.
//
// Scripts: Next.js streams the page's data as inline <script> tags; without per-request nonces
// (which would make every page dynamic and need a proxy on every request) they need
// 'unsafe-inline'. Every other script source stays closed: no other origin, no eval in
// production (React's development build needs it for its error overlay). Styles: recharts sets
// inline style attributes and sonner injects a <style> tag, so 'unsafe-inline' there too.
// No upgrade-insecure-requests or HSTS: a team may serve Beacon over plain HTTP on its own
// network, and TLS belongs to the proxy in front of it.

type Header = { key: string; value: string };

export function contentSecurityPolicy(mode: "development" | "production"): string {
  const dev = mode === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(mode: "development" | "production"): Header[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(mode) },
    // frame-ancestors for browsers that predate it.
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    // Nothing here needs the camera, the microphone, the location, payments or USB devices.
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  ];
}
