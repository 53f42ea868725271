// Import rules for lib/, app/, components/ and worker/, run by `npm run lint` (so CI fails on
// a violation). Cycles hide the order in which modules load and make a folder impossible to
// understand alone; the layer rules keep the general helpers at the bottom so a domain module
// can use them without pulling the domain graph in behind it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-file-cycle",
      comment: "Two source files import each other, directly or through others.",
      severity: "error",
      from: { path: "^(lib|app|components|worker)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycle",
      comment: "Two lib/ folders import each other, directly or through others.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/" },
      to: { path: "^lib/", circular: true },
    },
    {
      name: "bottom-layer-stays-at-the-bottom",
      comment:
        "lib/db, lib/config, lib/net, lib/validation, lib/errors.ts and lib/format.ts are the " +
        "base every domain builds on; they import nothing else from lib/ (lib/generated is Prisma's client). " +
        "lib/format.ts is also what browser code imports, so it stays free of server code.",
      severity: "error",
      from: { path: "^lib/(db|config|net|validation)/|^lib/(errors|format)\\.ts$" },
      to: { path: "^lib/", pathNot: "^lib/(db|config|net|validation|generated)/|^lib/(errors|format)\\.ts$" },
    },
    {
      name: "ui-reaches-engines-through-the-registry",
      comment:
        "An engine's module (lib/providers/<engine>.ts: its descriptor and adapter) is server code. app/ and " +
        "components/ import from lib/providers only the registry, whose `server-only` import fails the build of " +
        "a client component that imports it (server components pass engineChoices() down), and the modules " +
        "the browser shares (labels, schemas, limits, the settings schemas, types).",
      severity: "error",
      from: { path: "^(app|components)/" },
      to: {
        path: "^lib/providers/",
        pathNot: "^lib/providers/(registry|labels|schemas|limits|openai-compatible-settings|simulator-settings|types)\\.ts$",
      },
    },
    {
      name: "browser-provider-modules-stay-browser-safe",
      comment:
        "The lib/providers modules browser code imports (labels, schemas, limits, the settings schemas, types) " +
        "never import an engine's module, the registry or other server code: at run time only each other and " +
        "the pure base (lib/validation, lib/config/openai-compatible-key.ts).",
      severity: "error",
      from: { path: "^lib/providers/(labels|schemas|limits|openai-compatible-settings|simulator-settings|types)\\.ts$" },
      to: {
        path: "^lib/",
        pathNot:
          "^lib/providers/(labels|schemas|limits|openai-compatible-settings|simulator-settings|types)\\.ts$|^lib/validation/|^lib/config/openai-compatible-key\\.ts$",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "analysis-stays-pure",
      comment:
        "lib/analysis is pure text analysis (server, client and property tests share it): no " +
        "database, queue or configuration; the re-analysis that stores results is lib/brands/reanalysis.ts.",
      severity: "error",
      from: { path: "^lib/analysis/" },
      to: { path: "^lib/", pathNot: "^lib/(analysis/|providers/types\\.ts$)" },
    },
    {
      name: "alert-kinds-stay-browser-safe",
      comment:
        "The rule form imports the alert kinds (lib/alerts/kinds/) in the browser: at run time they import only " +
        "pure modules; a judge reads through the `read` it is handed (lib/alerts/reads.ts, a type import).",
      severity: "error",
      from: { path: "^lib/alerts/kinds" },
      to: {
        path: "^lib/",
        pathNot: "^lib/(alerts/kinds|analytics/significance\\.ts$|analytics/stats\\.ts$|format\\.ts$|prompts/schemas\\.ts$|validation/)",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "entry-points-at-the-top",
      comment:
        "lib/actions (server actions), lib/api (the HTTP API's plumbing), lib/mcp and lib/worker " +
        "(the worker's runner, maintenance and sweeper) are entry points: only app/, components/, " +
        "worker/ and each other (the MCP server shares the API's schemas) import them.",
      severity: "error",
      from: { path: "^lib/", pathNot: "^lib/(actions|api|mcp|worker)/" },
      to: { path: "^lib/(actions|api|mcp|worker)/" },
    },
    {
      name: "browser-helpers-stay-in-the-browser",
      comment: "lib/browser holds browser-only helpers (server action results for TanStack Query): server code never imports them.",
      severity: "error",
      from: { path: "^(lib|worker)/", pathNot: "^lib/browser/" },
      to: { path: "^lib/browser/" },
    },
    {
      name: "lib-not-from-app-or-components",
      comment: "lib/ is below the UI: it never imports app/ or components/.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "worker-not-from-app",
      comment: "The worker process never loads the web app's pages, routes or components.",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "tests-not-from-production",
      comment: "Production code never imports test support.",
      severity: "error",
      from: { path: "^(lib|app|components|worker|scripts)/" },
      to: { path: "^tests/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Tests are leaves (nothing imports them); their imports are not layers.
    exclude: { path: ["^(lib/generated|\\.next|\\.data|\\.test-data|node_modules)/", "\\.test\\.tsx?$"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
  },
};
