// Generates the Prisma client into lib/generated/prisma (run on install and before builds).
// The Prisma CLI insists on finding its schema-engine binary before `generate`, which it never
// runs; the binary cannot be downloaded here, so we point the check at an existing file.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
execFileSync(process.execPath, [cli, "generate"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
