// The engine list is the source of the docs' table and names the environment it reads: a new
// engine (docs/providers.md "Adding an engine") fails here until both say so.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ADAPTER_NAMES, ENGINES } from "@/lib/providers/engines";

const docs = fs.readFileSync("docs/providers.md", "utf8");
const tableRows = docs.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
const envSource = fs.readFileSync("lib/config/env.ts", "utf8");

describe("engines", () => {
  it("have unique names and CLI names", () => {
    expect(new Set(ADAPTER_NAMES).size).toBe(ENGINES.length);
    expect(new Set(ENGINES.map((e) => e.cliName)).size).toBe(ENGINES.length);
  });

  it.each(ENGINES.map((e) => [e.name, e] as const))("%s has a row in docs/providers.md's table with its CLI name", (_name, engine) => {
    const row = tableRows.find((line) => line.includes(`| \`${engine.name}\``));
    expect(row, `no row for ${engine.name}`).toBeDefined();
    if (engine.cliName !== engine.name) expect(row).toContain(`(\`${engine.cliName}\`)`);
  });

  it.each(ENGINES.map((e) => [e.name, e] as const))("%s's environment keys are in lib/config/env.ts's schema", (_name, engine) => {
    // A pattern (OPENAI_COMPATIBLE_<NAME>) names the connection's own variable, read at call time.
    for (const key of engine.envKeys.filter((k) => !k.includes("<"))) expect(envSource).toMatch(new RegExp(`^  ${key}: z\\.`, "m"));
  });
});
