import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      { find: /^server-only$/, replacement: `${root}/tests/support/empty-module.ts` },
    ],
  },
  test: {
    pool: "forks",
    // Two cores: more workers only queue on the CPU (and on the one PostgreSQL server).
    maxWorkers: 2,
    teardownTimeout: 30_000,
    projects: [
      {
        // Pure code, no database, no child process. The timeout only catches a hang: property
        // tests and password scoring are CPU-bound, and on a loaded 2-core machine vitest's 5 s
        // default failed tests that were merely queued for a core.
        // Not isolated: the files of a test process share one module graph, which saves each
        // file's imports (about 40 % of this project's CPU time). So a unit test must leave
        // modules and globals as it found them (no vi.mock, no process.env changes); one that
        // cannot goes in the process project.
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "worker/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "**/*.process.test.ts"],
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        // Tests next to the code that start real processes (node, tsx, sh), or that mock modules
        // or change globals: isolated, one module graph per file. A child's start-up is seconds
        // under load, so these get the integration project's limits. No database.
        extends: true,
        test: {
          name: "process",
          environment: "node",
          include: ["lib/**/*.process.test.ts", "scripts/**/*.process.test.ts", "worker/**/*.process.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Not isolated either: one test process runs file after file, so better-auth, Prisma's
        // runtime, pg and Next load once per process, not once per file (most of an integration
        // file's import time). Each file still gets its own database, process.env and fresh
        // copies of our modules (tests/support/setup-database.ts resets them).
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: ["tests/support/setup-database.ts"],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Browser tests against the production build started by `scripts/run.ts start`; run
        // with `npm run test:e2e` after `npm run build` (`npm test` leaves them out).
        extends: true,
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/support/global-setup.ts"],
          // One app and one Chromium at a time: two cores already run the server, worker and database.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
