// `npm run beacon -- <command>`: operator commands that need no browser.
//   api-key create --workspace <slug> --name <name>   prints a new API key (shown once)
import { parseArgs } from "node:util";
import { setDatabaseUrl } from "@/lib/config/env";
import { getDatabase } from "@/lib/db/database-url";

const USAGE = `Usage:
  npm run beacon -- api-key create --workspace <slug> --name <name>`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [group, command, ...rest] = process.argv.slice(2);
if (group !== "api-key" || command !== "create") fail(USAGE);
const { values } = parseArgs({ args: rest, options: { workspace: { type: "string" }, name: { type: "string" } }, strict: true });
if (!values.workspace || !values.name?.trim()) fail(`Both --workspace and --name are required.\n${USAGE}`);

const database = await getDatabase();
try {
  setDatabaseUrl(database.url);
  const { findWorkspaceBySlug } = await import("@/lib/workspaces/workspaces");
  const { createApiKey } = await import("@/lib/api-keys/api-keys");
  const workspace = await findWorkspaceBySlug(values.workspace);
  if (!workspace) fail(`No workspace with slug "${values.workspace}".`);
  const created = await createApiKey(workspace.id, values.name.trim(), null);
  console.log(created.key);
  console.error(`API key "${created.name}" created for workspace ${workspace.slug}. It is shown only now; store it safely.`);
} finally {
  const { disconnectDb } = await import("@/lib/db/prisma");
  await disconnectDb();
  await database.stop();
}
