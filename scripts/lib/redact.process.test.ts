// The launcher prints a child's output through redactSecrets (scripts/lib/processes.ts): a real
// child process, in the "process" project. Next's own formatter writes the line, as next dev does.
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startChild } from "./processes";
import { REDACTED } from "./redact";

const { formatArgs } = createRequire(import.meta.url)("next/dist/server/dev/server-action-logger.js") as { formatArgs: (args: unknown[]) => string };
const nextLine = (name: string, args: unknown[]) => `  └─ ƒ ${name}(${formatArgs(args)}) in 85ms lib/actions/auth.ts`;

describe("the launcher's output of a child", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is redacted before it is printed", async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (printed.push(String(chunk)), true));
    const line = nextLine("signInAction", [{ email: "ada@example.com", password: "correct horse battery" }]);
    const child = startChild({ name: "web", color: "cyan", command: process.execPath, args: ["-e", `console.log(${JSON.stringify(line)})`], env: process.env });
    await child.exited;
    // readline emits the last line just after the exit.
    await vi.waitFor(() => expect(printed.join("")).toContain("signInAction"), { timeout: 30_000 });
    expect(printed.join("")).not.toContain("correct horse battery");
    expect(printed.join("")).toContain(`"password":"${REDACTED}"`);
  });
});
