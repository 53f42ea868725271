// The engine list is the source of the docs' table and of the engines' environment variables: a
// new engine (docs/providers.md "Adding an engine") fails here until the docs say so.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ADAPTER_NAMES, ENGINES } from "@/lib/providers/registry";

const docs = fs.readFileSync("docs/providers.md", "utf8");
const tableRows = docs.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));

describe("engines", () => {
  it("have unique names and CLI names", () => {
    expect(new Set(ADAPTER_NAMES).size).toBe(ENGINES.length);
    expect(new Set(ENGINES.map((e) => e.cliName)).size).toBe(ENGINES.length);
  });

  it("that read the same variable validate it with the same schema (validateEngineEnv keeps one)", () => {
    const seen = new Map<string, unknown>();
    for (const [key, schema] of ENGINES.flatMap((e) => Object.entries(e.env))) {
      if (seen.has(key)) expect(schema, key).toBe(seen.get(key));
      seen.set(key, schema);
    }
  });

  it.each(ENGINES.map((e) => [e.name, e] as const))("%s has a row in docs/providers.md's table with its CLI name", (_name, engine) => {
    const row = tableRows.find((line) => line.includes(`| \`${engine.name}\``));
    expect(row, `no row for ${engine.name}`).toBeDefined();
    if (engine.cliName !== engine.name) expect(row).toContain(`(\`${engine.cliName}\`)`);
  });

  it.each(ENGINES.map((e) => [e.name, e] as const))("%s's environment variables are documented in docs/providers.md", (_name, engine) => {
    for (const key of Object.keys(engine.env)) expect(docs, key).toContain(`\`${key}\``);
  });
});
