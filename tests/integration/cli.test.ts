// The operator CLI as a user runs it: a real process, real files, JSON on stdout.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/db/prisma";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { cliNodeArgs } from "@/scripts/lib/worker-bundle";

const run = promisify(execFile);

async function beacon(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...(await cliNodeArgs()), ...args], { env: { ...process.env, NODE_ENV: "production", BEACON_TEST_CHEAP_PASSWORD_HASH: "" }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("beacon analyze", () => {
  it("prints entities and citations for an answer file", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "beacon-cli-"));
    const file = path.join(dir, "answer.json");
    writeFileSync(
      file,
      JSON.stringify({
        answer: "1. **HubSpot** is excellent.\n2. Lumen's reporting is clunky, see https://lumencrm.com/blog?utm_source=x",
        brand: { name: "Lumen CRM", aliases: ["Lumen"], domains: ["lumencrm.com"] },
        competitors: [{ name: "HubSpot", aliases: [], domains: ["hubspot.com"] }, { name: "Pipedrive" }],
        sources: [{ url: "https://www.g2.com/crm", title: "G2" }],
      }),
    );
    const result = await beacon(["analyze", file]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.entities).toEqual([
      { name: "Lumen CRM", kind: "brand", mentioned: true, count: 1, position: 2, sentiment: "negative" },
      { name: "HubSpot", kind: "competitor", mentioned: true, count: 1, position: 1, sentiment: "positive" },
      { name: "Pipedrive", kind: "competitor", mentioned: false, count: 0, position: null, sentiment: null },
    ]);
    expect(output.citations).toEqual([
      { url: "https://www.g2.com/crm", domain: "g2.com", own: false },
      { url: "https://lumencrm.com/blog", domain: "lumencrm.com", own: true },
    ]);
    expect(output.truncated).toBe(false);
  });

  it("refuses a malformed file with the field at fault and exit code 2", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "beacon-cli-"));
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ answer: 3 }));
    const result = await beacon(["analyze", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/answer: .*expected string/);
  });
});

describe("beacon capture", () => {
  it("calls the simulator once and prints the normalised result with its cost", async () => {
    const result = await beacon(["capture", "--provider", "simulator", "--prompt", "What is the best CRM for a startup?", "--search", "on"]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({ ok: true, requestId: expect.stringMatching(/^sim_/) });
    expect(output.text.length).toBeGreaterThan(50);
    expect(output.usage.inputTokens).toBeGreaterThan(0);
    expect(output.searchQueries.length).toBeGreaterThan(0);
    expect(output.costMicros).toBeGreaterThan(0);
  });

  it("reports a provider without a key as not configured", async () => {
    const result = await beacon(["capture", "--provider", "openai", "--prompt", "hello there"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { retryClass: "permanent", reason: "not_configured" } });
  });
});

describe("beacon api-key create", () => {
  /**
   * A workspace with two owners and an older admin; its first owner (oldest owner membership) is
   * `first`, whose row was written after the creator's.
   */
  async function workspaceWithOwners() {
    const user = (name: string) => db().user.create({ data: { id: `${name}-${randomUUID()}`, name, email: `${name}.${randomUUID()}@example.com` } });
    const creator = await user("creator");
    const workspace = await createWorkspace(creator.id, `CLI keys ${randomUUID().slice(0, 8)}`);
    const first = await user("first-owner");
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db().membership.create({ data: { workspaceId: workspace.id, userId: first.id, role: "owner", createdAt: daysAgo(1) } });
    await db().membership.create({ data: { workspaceId: workspace.id, userId: (await user("an-admin")).id, role: "admin", createdAt: daysAgo(2) } });
    return { workspace, first };
  }

  it("prints a key with the requested scope, owned by the workspace's first owner", async () => {
    const { workspace, first } = await workspaceWithOwners();
    const result = await beacon(["api-key", "create", "--workspace", workspace.slug, "--name", "Nightly CI", "--scope", "read"]);
    expect(result.code, result.stderr).toBe(0);
    const key = result.stdout.trim();
    expect(result.stderr).toMatch(new RegExp(`scope read.*owned by ${first.email}`));

    const row = await db().apiKey.findFirstOrThrow({ where: { workspaceId: workspace.id, name: "Nightly CI" } });
    expect(row).toMatchObject({ scope: "read", createdById: first.id, revokedAt: null });
    expect(await authenticateApiKey(key)).toMatchObject({ workspaceId: workspace.id, userId: first.id, scope: "read", role: "viewer" });
  });

  it("gives a key without --scope the write scope, and refuses an unknown scope", async () => {
    const { workspace, first } = await workspaceWithOwners();
    const result = await beacon(["api-key", "create", "--workspace", workspace.slug, "--name", "Deploys"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await authenticateApiKey(result.stdout.trim())).toMatchObject({ userId: first.id, scope: "write", role: "member" });

    const refused = await beacon(["api-key", "create", "--workspace", workspace.slug, "--name", "Root", "--scope", "owner"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--scope must be one of read, write, admin/);
    expect(await db().apiKey.count({ where: { workspaceId: workspace.id, name: "Root" } })).toBe(0);
  });
});
