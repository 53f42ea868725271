// Prisma CLI configuration. Only `prisma generate` is used here: migrations are applied by
// scripts/migrate.ts because Prisma's schema engine cannot be downloaded (see docs/development.md).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
