// The production web server (`next start` on the existing build, as scripts/run.ts starts it) for
// measurements that need a real one, and a client that signs in and calls its server actions
// over HTTP the way the browser does (POST with a Next-Action header; the answer is React's
// flight format, whose line "1:" holds the action's result).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/db/embedded-postgres";
import { BenchChild } from "./processes";

const ROOT = process.cwd();

export const hasBuild = () => fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"));

export type WebServer = { child: BenchChild; url: string; dataDir: string };

export async function startWebServer(databaseUrl: string, authSecret: string): Promise<WebServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-bench-web-"));
  const preload = `--require ${JSON.stringify(path.join(ROOT, "scripts", "peer-address.cjs"))}`;
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BEACON_AUTH_SECRET: authSecret,
      BEACON_DATA_DIR: dataDir,
      BEACON_URL: url,
      PORT: String(port),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(" "),
    },
  });
  const server = new BenchChild("web", child);
  await server.waitForLine(/\bReady in\b/, 60_000);
  return { child: server, url, dataDir };
}

export async function stopWebServer(server: WebServer): Promise<void> {
  await server.child.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** The id Next gave a server action, from the build's manifest. */
export function actionId(file: string, exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const id = Object.entries(manifest.node).find(([, entry]) => entry.filename === file && entry.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} of ${file} in the build (run npm run build)`);
  return id;
}

/** Signs in through better-auth's endpoint; the session cookie to send with every call. */
export async function signIn(server: WebServer, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** One call of a server action as the browser makes it; its result and the bytes that came back. */
export async function callAction<T>(server: WebServer, cookie: string, id: string, pagePath: string, input: unknown): Promise<{ result: T; bytes: number }> {
  const response = await fetch(`${server.url}${pagePath}`, {
    method: "POST",
    headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: server.url, cookie },
    body: JSON.stringify([input]),
  });
  const text = await response.text();
  const line = text.split("\n").find((l) => l.startsWith("1:"));
  if (!response.ok || !line) throw new Error(`action ${id} answered ${response.status}: ${text.slice(0, 300)}`);
  const parsed = JSON.parse(line.slice(2)) as { data?: T; serverError?: { message: string } };
  if (!parsed.data) throw new Error(`action ${id} failed: ${JSON.stringify(parsed.serverError ?? parsed).slice(0, 300)}`);
  return { result: parsed.data, bytes: Buffer.byteLength(text) };
}
