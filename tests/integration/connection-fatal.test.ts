// A database restart can end a connection in the very segment that completes its start-up (CI:
// a worker died on an unhandled pg 'error' event, 57P01, holding a paid answer that was then lost
// and paid again). Each pool of the product must turn that into a failed statement the caller
// retries, never into a crash. The process under test is real: it takes connections the way the
// worker's pools do, through a proxy that plays the restart (tests/support/fatal-proxy.ts).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { scriptNodeArgs } from "@/scripts/lib/worker-bundle";
import { startFatalProxy, type FatalProxy } from "@/tests/support/fatal-proxy";

const run = promisify(execFile);
let proxy: FatalProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

async function probe(pool: "prisma" | "jobs") {
  proxy = await startFatalProxy(process.env.DATABASE_URL!, (n) => n === 1);
  const args = await scriptNodeArgs("tests/support/fresh-connection-probe.ts", "fresh-connection-probe");
  const { stdout } = await run(process.execPath, [...args, pool], {
    env: { ...process.env, DATABASE_URL: proxy.url },
    timeout: 60_000,
  }).catch((error: { code?: number; signal?: string; stderr?: string }) => {
    throw new Error(`the probe died (code ${error.code}, signal ${error.signal}):\n${error.stderr}`);
  });
  return { outcomes: JSON.parse(stdout.trim().split("\n").pop()!) as string[], ended: proxy.ended };
}

describe("a connection the server ends right after its start-up", () => {
  it("fails the Prisma transaction that took it, and the next one runs (no crash)", async () => {
    const { outcomes, ended } = await probe("prisma");
    expect(ended).toBe(1);
    expect(outcomes[0]).toMatch(/^failed: /);
    expect(outcomes[1]).toBe("ok");
  });

  it("fails the job queue's statement that took it, and the next one runs (no crash)", async () => {
    const { outcomes, ended } = await probe("jobs");
    expect(ended).toBe(1);
    expect(outcomes[0]).toMatch(/^failed: /);
    expect(outcomes[1]).toBe("ok");
  });
});
