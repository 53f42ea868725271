// `npm run beacon -- <command>`: operator commands that need no browser.
//   api-key create --workspace <slug> --name <name> [--scope read|write|admin]
//       prints a new API key (shown once) with that scope (default write), owned by the
//       workspace's first owner (oldest owner membership)
//   capture --provider <an engine's cliName in lib/providers/registry.ts, but openai-compatible>
//           --prompt "<text>" [--model <m>] [--search on|off|auto] [--max-output-tokens <n>] [--max-search-calls <n>]
//       calls that provider once, outside any check, with those limits (default: a new provider
//       configuration's), and prints the normalised result as JSON (the Google ones: --model
//       dataforseo or serpapi picks the SERP API)
//   capture --provider openai-compatible --base-url <url> --model <m> --prompt "<text>" [--api-key-env OPENAI_COMPATIBLE_<NAME>]
//           [--input-price <usd per 1M>] [--output-price <usd per 1M>]
//       the same against any OpenAI-compatible server; the key is OPENAI_COMPATIBLE_API_KEY unless
//       --api-key-env names another (none: no Authorization header); prices are 0 unless given
//   analyze <file.json>
//       analyses an answer: { answer, brand: {name, aliases, domains}, competitors: [same], sources? }
//   doctor
//       takes over runs of dead workers, runs the repair pass once and prints what it repaired
//   admin grant <email>
//       makes an existing account an operator (an instance admin: provider connections, grants)
//   auth unlock <email>
//       forgets the failed sign-ins counted against that account from every client, so whoever
//       knows its password can sign in again at once (lib/auth/rate-limit.ts)
//   charts
//       lists the dashboard charts of GET /api/v1/analytics/<chart> and MCP get_numbers: each
//       name, its own query-string parameters and what it answers (lib/analytics/charts.ts)
//   traffic import <file|-> --workspace <slug> [--format combined|cloudflare|vercel|netlify|csv] [--host <domain>] [--key <key>]
//       imports an access log (plain or gzip; - reads stdin) as POST /api/v1/traffic/logs does and
//       prints the report as JSON; exit code 1 when some lines could not be read. Run again with the
//       same --key (the Idempotency-Key), an import that stopped stores only the lines not yet
//       stored, and one that ended prints its report again (docs/traffic.md)
//   traffic ranges import <file> --crawler <name> [--source <url>]
//       stores a crawler operator's published IP ranges (their JSON, e.g. openai.com/gptbot.json)
//       in place of the snapshot shipped for that crawler
//   mcp
//       serves the MCP tools (lib/mcp/server.ts) over stdio with the API key in BEACON_API_KEY,
//       which decides the workspace and the scope; the protocol alone goes to stdout
import { parseArgs } from "node:util";
import { setDatabaseUrl } from "@/lib/config/env";
import type { PriceTable } from "@/lib/billing/money";
import { getDatabase } from "@/lib/db/database-url";
import { ENGINES } from "@/lib/providers/registry";

// The simulator last: `capture` is mostly how an operator checks a real engine's key.
const CLI_ENGINES = [...ENGINES.filter((e) => e.name !== "simulator"), ...ENGINES.filter((e) => e.name === "simulator")];

const USAGE = `Usage:
  npm run beacon -- api-key create --workspace <slug> --name <name> [--scope read|write|admin]
  npm run beacon -- capture --provider <${CLI_ENGINES.filter((e) => e.name !== "openai_compatible").map((e) => e.cliName).join("|")}> --prompt "<text>"
      [--model <m>] [--search on|off|auto] [--timeout <seconds>]
      [--max-output-tokens <n>] [--max-search-calls <n>]
  npm run beacon -- capture --provider openai-compatible --base-url <url> --model <m> --prompt "<text>" [--api-key-env OPENAI_COMPATIBLE_<NAME>]
      [--input-price <usd per 1M tokens>] [--output-price <usd per 1M tokens>]   (key: OPENAI_COMPATIBLE_API_KEY unless --api-key-env; prices 0 unless given)
  npm run --silent beacon -- analyze <file.json>
  npm run beacon -- doctor
  npm run beacon -- admin grant <email>
  npm run beacon -- auth unlock <email>
  npm run --silent beacon -- charts
  npm run --silent beacon -- traffic import <file|-> --workspace <slug> [--format combined|cloudflare|vercel|netlify|csv] [--host <domain>] [--key <key>]
  npm run beacon -- traffic ranges import <file> --crawler <name> [--source <url>]
  BEACON_API_KEY=<key> npm run --silent beacon -- mcp`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function createApiKeyCommand(args: string[]) {
  const { values } = parseArgs({ args, options: { workspace: { type: "string" }, name: { type: "string" }, scope: { type: "string" } }, strict: true });
  if (!values.workspace || !values.name?.trim()) fail(`Both --workspace and --name are required.\n${USAGE}`);
  const { API_KEY_SCOPES, DEFAULT_API_KEY_SCOPE } = await import("@/lib/permissions/api-key-scopes");
  const scope = API_KEY_SCOPES.find((s) => s === (values.scope ?? DEFAULT_API_KEY_SCOPE));
  if (!scope) fail(`--scope must be one of ${API_KEY_SCOPES.join(", ")}.\n${USAGE}`);
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { findWorkspaceBySlug } = await import("@/lib/workspaces/workspaces");
    const { createApiKeyForFirstOwner } = await import("@/lib/api-keys/api-keys");
    const workspace = await findWorkspaceBySlug(values.workspace);
    if (!workspace) fail(`No workspace with slug "${values.workspace}".`);
    const created = await createApiKeyForFirstOwner(workspace.id, { name: values.name.trim(), scope });
    console.log(created.key);
    console.error(
      `API key "${created.name}" (scope ${created.scope}) created for workspace ${workspace.slug}, owned by ${created.owner.email}; ` +
        `it stops working if they leave the workspace. It is shown only now; store it safely.`,
    );
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

async function captureCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      provider: { type: "string" },
      prompt: { type: "string" },
      model: { type: "string" },
      search: { type: "string" },
      timeout: { type: "string" },
      "max-output-tokens": { type: "string" },
      "max-search-calls": { type: "string" },
      "base-url": { type: "string" },
      "api-key-env": { type: "string" },
      "input-price": { type: "string" },
      "output-price": { type: "string" },
    },
    strict: true,
  });
  // The CLI names engines with hyphens (yandex-search, openai-compatible), and takes underscores too.
  const adapter = CLI_ENGINES.find((e) => e.cliName.replaceAll("-", "_") === values.provider?.replaceAll("-", "_"))?.name;
  if (!adapter) fail(`--provider must be one of ${CLI_ENGINES.map((e) => e.cliName).join(", ")}.\n${USAGE}`);
  if (!values.prompt?.trim()) fail(`--prompt is required.\n${USAGE}`);
  const searchMode = (values.search ?? "auto") as "on" | "off" | "auto";
  if (!["on", "off", "auto"].includes(searchMode)) fail("--search must be on, off or auto.");
  const { LIST_PRICES, listPricesOf } = await import("@/lib/providers/defaults");
  const { DEFAULT_CALL_LIMITS } = await import("@/lib/providers/limits");
  const { callLimitsSchema } = await import("@/lib/providers/schemas");
  const { testCall } = await import("@/lib/connections/test-call");
  const numberOr = (text: string | undefined, fallback: number) => (text === undefined ? fallback : text.trim() ? Number(text) : NaN);
  const limits = callLimitsSchema.safeParse({
    maxOutputTokens: numberOr(values["max-output-tokens"], DEFAULT_CALL_LIMITS.maxOutputTokens),
    maxSearchCalls: numberOr(values["max-search-calls"], DEFAULT_CALL_LIMITS.maxSearchCalls),
  });
  if (!limits.success) {
    const flags = { maxOutputTokens: "--max-output-tokens", maxSearchCalls: "--max-search-calls" };
    fail(limits.error.issues.map((i) => `${flags[i.path[0] as keyof typeof flags]}: ${i.message}`).join("\n"));
  }
  let call: { model: string; price: PriceTable; settings?: Record<string, unknown> };
  if (adapter === "openai_compatible") {
    call = await openAICompatibleCall(values);
  } else {
    const list = adapter === "simulator" ? LIST_PRICES.openai : LIST_PRICES[adapter];
    const model = values.model ?? list.model;
    // The Google connections' model names the SERP API, whose prices differ.
    const p = adapter === "simulator" ? list.prices : listPricesOf(adapter, model);
    call = {
      model,
      price: { inputPricePerMTokMicros: p.input, outputPricePerMTokMicros: p.output, cachedPricePerMTokMicros: p.cached, reasoningPricePerMTokMicros: p.reasoning, searchPriceMicros: p.search },
      settings: adapter === "simulator" ? { latencyMinMs: 200, latencyMaxMs: 600 } : undefined,
    };
  }
  const result = await testCall({
    adapter,
    ...call,
    searchMode,
    prompt: values.prompt.trim(),
    timeoutMs: Number(values.timeout ?? 120) * 1000,
    limits: limits.data,
  });
  console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.ok ? 0 : 1;
}

/**
 * An OpenAI-compatible server has no list price and no default model: the base URL and model are
 * required, the key is OPENAI_COMPATIBLE_API_KEY unless --api-key-env names another variable, and
 * prices are 0 unless given (USD per 1M tokens; reasoning at the output price).
 */
async function openAICompatibleCall(values: Record<string, string | boolean | undefined>) {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const model = text("model")?.trim();
  if (!text("base-url") || !model) fail(`--provider openai-compatible needs --base-url and --model.\n${USAGE}`);
  const { openAICompatibleKey } = await import("@/lib/config/env");
  const { openAICompatibleSettingsSchema } = await import("@/lib/providers/openai-compatible-settings");
  const apiKeyEnv = text("api-key-env") ?? (openAICompatibleKey("OPENAI_COMPATIBLE_API_KEY") ? "OPENAI_COMPATIBLE_API_KEY" : undefined);
  const settings = openAICompatibleSettingsSchema.safeParse({ baseURL: text("base-url"), apiKeyEnv });
  if (!settings.success) {
    const flags = { baseURL: "--base-url", apiKeyEnv: "--api-key-env" };
    fail(settings.error.issues.map((i) => `${flags[i.path[0] as keyof typeof flags]}: ${i.message}`).join("\n"));
  }
  const { parseDecimal } = await import("@/lib/validation/decimal");
  const price = (flag: string) => {
    const given = text(flag);
    if (given === undefined) return 0;
    const parsed = parseDecimal(given, 6);
    if (parsed.error) fail(`--${flag}: ${parsed.error} (US dollars per 1M tokens)`);
    return parsed.value;
  };
  const input = price("input-price");
  const output = price("output-price");
  if (!text("input-price") && !text("output-price")) console.error("No --input-price / --output-price given: costMicros is computed at 0 USD per token.");
  return {
    model,
    price: { inputPricePerMTokMicros: input, outputPricePerMTokMicros: output, cachedPricePerMTokMicros: input, reasoningPricePerMTokMicros: output, searchPriceMicros: 0 },
    settings: settings.data,
  };
}

async function analyzeCommand(file: string | undefined) {
  if (!file) fail(`Give the JSON file to analyse.\n${USAGE}`);
  const { readFile } = await import("node:fs/promises");
  const { analysisFileSchema } = await import("@/lib/analysis/file-schema");
  const { analyzeAnswer } = await import("@/lib/analysis/analyze");
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    fail(`Could not read ${file}: ${(error as Error).message}`);
  }
  const parsed = analysisFileSchema.safeParse(raw);
  if (!parsed.success) fail(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  const result = analyzeAnswer(parsed.data);
  const citations = result.citations.map((c) => ({ url: c.url, domain: c.domain, own: c.isOwnDomain }));
  // truncated: only the first ANALYSIS_MAX_CHARS characters were read, as for a capture.
  console.log(JSON.stringify({ entities: result.entities, citations, truncated: result.truncated }, null, 2));
}

/**
 * The sweeper and the repair pass once, by hand (workers run both on their own): what a healthy
 * system prints is "nothing to repair".
 */
async function doctorCommand() {
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { sweepDeadWorkers } = await import("@/lib/worker/sweeper");
    const { runRepairPass } = await import("@/lib/lifecycle/repair");
    const swept = await sweepDeadWorkers();
    console.log(`dead workers unlocked: ${swept.workers.length}; runs taken over: ${swept.expired} (${swept.recovered} running again, ${swept.failed} ended)`);
    const repairs = await runRepairPass({ log: (line) => console.log(line) });
    console.log(Object.keys(repairs).length ? `repaired: ${JSON.stringify(repairs)}` : "nothing to repair");
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

async function grantOperatorCommand(email: string | undefined) {
  if (!email?.trim()) fail(`Give the email of the account to make an operator.\n${USAGE}`);
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { grantOperator } = await import("@/lib/instance/operators");
    const { UserError } = await import("@/lib/errors");
    try {
      const result = await grantOperator(email);
      console.log(result.alreadyOperator ? `${email.trim()} is already an operator.` : `${email.trim()} is now an operator.`);
    } catch (error) {
      if (error instanceof UserError) fail(error.message);
      throw error;
    }
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

async function unlockAccountCommand(email: string | undefined) {
  if (!email?.trim()) fail(`Give the email of the account to unlock.\n${USAGE}`);
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { unlockAccount } = await import("@/lib/auth/rate-limit");
    const forgotten = await unlockAccount(email);
    console.log(`${email.trim()}: ${forgotten} failed sign-in${forgotten === 1 ? "" : "s"} forgotten; it can sign in again.`);
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

async function trafficImportCommand(args: string[]) {
  const { values, positionals } = parseArgs({ args, options: { workspace: { type: "string" }, format: { type: "string" }, host: { type: "string" }, key: { type: "string" } }, allowPositionals: true, strict: true });
  const file = positionals[0];
  if (!file || !values.workspace) fail(`Give the log file (or - for stdin) and --workspace.\n${USAGE}`);
  const { LOG_FORMATS } = await import("@/lib/traffic/formats");
  const format = LOG_FORMATS.find((f) => f === values.format);
  if (values.format && !format) fail(`--format must be one of ${LOG_FORMATS.join(", ")}.`);
  const { idempotencyKeySchema } = await import("@/lib/checks/schemas");
  const key = values.key === undefined ? undefined : idempotencyKeySchema.safeParse(values.key);
  if (key && !key.success) fail(`--key: ${key.error.issues[0]!.message}.`);
  const { createReadStream } = await import("node:fs");
  const input = file === "-" ? process.stdin : createReadStream(file);
  // A read error (a missing file fails as the stream opens) reaches the import through its lines
  // (below); this listener only keeps it from being an uncaught 'error' event first.
  input.on("error", () => {});
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { findWorkspaceBySlug } = await import("@/lib/workspaces/workspaces");
    const { importTrafficLog, linesOf } = await import("@/lib/traffic/import");
    const { UserError } = await import("@/lib/errors");
    const workspace = await findWorkspaceBySlug(values.workspace);
    if (!workspace) fail(`No workspace with slug "${values.workspace}".`);
    try {
      // The CLI reads files of any size: no upload limit.
      const report = await importTrafficLog(workspace.id, linesOf(input, { maxBytes: Number.MAX_SAFE_INTEGER }), { format, host: values.host, idempotencyKey: key?.data });
      console.log(JSON.stringify(report, null, 2));
      process.exitCode = report.errorCount ? 1 : 0;
    } catch (error) {
      if (error instanceof UserError) fail(error.message);
      // A file that cannot be read fails the import through its lines, so a keyed import records
      // that it stopped (--key again resumes at once) before the CLI exits.
      if (typeof (error as NodeJS.ErrnoException).syscall === "string") fail(`Could not read ${file}: ${(error as Error).message}`);
      throw error;
    }
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

async function trafficRangesImportCommand(args: string[]) {
  const { values, positionals } = parseArgs({ args, options: { crawler: { type: "string" }, source: { type: "string" } }, allowPositionals: true, strict: true });
  const file = positionals[0];
  if (!file || !values.crawler) fail(`Give the ranges file and --crawler.\n${USAGE}`);
  const { CRAWLERS } = await import("@/lib/traffic/crawlers");
  const crawler = CRAWLERS.find((c) => c.name.toLowerCase() === values.crawler!.toLowerCase());
  if (!crawler) fail(`Unknown crawler "${values.crawler}"; one of ${CRAWLERS.filter((c) => c.uaToken).map((c) => c.name).join(", ")}.`);
  const { readFile } = await import("node:fs/promises");
  const { publishedRangesSchema, cidrsOf } = await import("@/lib/traffic/verify");
  let prefixes: string[] = [];
  let publishedAt: Date | null = null;
  try {
    const parsed = publishedRangesSchema.parse(JSON.parse(await readFile(file, "utf8")));
    prefixes = cidrsOf(parsed);
    const created = parsed.creationTime ? new Date(parsed.creationTime) : null;
    publishedAt = created && !Number.isNaN(created.getTime()) ? created : null;
  } catch (error) {
    fail(`${file}: not a published ranges file ({ "prefixes": [{ "ipv4Prefix": "…" }] }): ${(error as Error).message}`);
  }
  const database = await getDatabase();
  try {
    setDatabaseUrl(database.url);
    const { saveRanges } = await import("@/lib/traffic/store");
    await saveRanges({ crawler: crawler.name, prefixes, source: values.source ?? file, publishedAt });
    console.log(`${crawler.name}: ${prefixes.length} prefixes stored${publishedAt ? ` (published ${publishedAt.toISOString()})` : ""}; they replace the shipped snapshot.`);
  } finally {
    const { disconnectDb } = await import("@/lib/db/prisma");
    await disconnectDb();
    await database.stop();
  }
}

/**
 * MCP over stdio for a local assistant: stdout carries the protocol alone, so every log line
 * goes to stderr. The key is checked at start (a bad one exits with 2) and again on each tool call.
 */
async function mcpCommand() {
  console.log = console.error;
  const { env } = await import("@/lib/config/env");
  const key = env().BEACON_API_KEY;
  if (!key) fail(`Set BEACON_API_KEY to an API key (Settings → API keys, or api-key create); it decides the workspace and the scope.\n${USAGE}`);
  const database = await getDatabase();
  setDatabaseUrl(database.url);
  const { authenticateApiKey } = await import("@/lib/api-keys/api-keys");
  const { disconnectDb } = await import("@/lib/db/prisma");
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= disconnectDb().then(() => database.stop()).then(() => process.exit(0)));
  const caller = await authenticateApiKey(key);
  if (!caller) {
    await disconnectDb();
    await database.stop();
    fail("BEACON_API_KEY is not valid, was revoked, or belongs to someone who left the workspace.");
  }
  const { createMcpServer } = await import("@/lib/mcp/server");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = await createMcpServer(() => authenticateApiKey(key));
  await server.connect(new StdioServerTransport());
  console.error(`Beacon MCP server on stdio for workspace ${caller.workspaceId} (scope ${caller.scope}).`);
  process.stdin.on("end", stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

const [group, command, ...rest] = process.argv.slice(2);
if (group === "api-key" && command === "create") await createApiKeyCommand(rest);
else if (group === "capture") await captureCommand([command ?? "", ...rest].filter(Boolean));
else if (group === "analyze") await analyzeCommand(command);
else if (group === "doctor") await doctorCommand();
else if (group === "admin" && command === "grant") await grantOperatorCommand(rest[0]);
else if (group === "auth" && command === "unlock") await unlockAccountCommand(rest[0]);
else if (group === "charts") console.log((await import("@/lib/analytics/charts")).chartListing());
else if (group === "traffic" && command === "import") await trafficImportCommand(rest);
else if (group === "traffic" && command === "ranges" && rest[0] === "import") await trafficRangesImportCommand(rest.slice(1));
else if (group === "mcp") await mcpCommand();
else fail(USAGE);
