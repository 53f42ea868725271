// The launcher (scripts/run.ts) refuses to start on an invalid setting, an engine's variable as
// much as its own: each engine declares its variables beside its adapter (lib/providers/<engine>.ts)
// and the launcher validates all of them before it starts a database or a child.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");

async function launch(variables: Record<string, string>) {
  // Worker mode needs no build; a bad value must stop it before it reaches for a database (none here).
  const env = { ...process.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", ...variables };
  return promisify(execFile)(process.execPath, [tsx, "--conditions=react-server", "scripts/run.ts", "worker"], { env, timeout: 60_000 }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
  );
}

describe("the launcher's configuration", () => {
  it.each([
    ["an engine's", { GIGACHAT_SCOPE: "GIGACHAT_API_ANYONE" }, "GIGACHAT_SCOPE"],
    ["the simulator's", { SIMULATOR_LATENCY_MS: "soon" }, "SIMULATOR_LATENCY_MS"],
    ["its own", { BEACON_SIGNUP: "maybe" }, "BEACON_SIGNUP"],
    ["a list", { BEACON_READINESS_ORIGINS: "lumencrm.com=http://10.0.0.5/site" }, "BEACON_READINESS_ORIGINS"],
    // Cheaper password hashes are for tests only: a real instance refuses them however it is set up.
    ["a test-only", { BEACON_TEST_CHEAP_PASSWORD_HASH: "true", NODE_ENV: "production" }, "BEACON_TEST_CHEAP_PASSWORD_HASH"],
  ])("stops at start on an invalid variable of %s, naming it", async (_whose, variables, name) => {
    const { code, stderr } = await launch(variables);
    expect(code).not.toBe(0);
    expect(stderr).toContain("Invalid configuration:");
    expect(stderr).toContain(`  ${name}: `);
  });
});
