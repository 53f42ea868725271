// scripts/peer-address.cjs in a real Node process, as scripts/run.ts preloads it into the web
// server: an HTTP server created afterwards sees the socket's peer under x-beacon-peer-address,
// whatever the client sent under that name.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PRELOAD = fileURLToPath(new URL("./peer-address.cjs", import.meta.url));

// Answers every request with the headers it saw and whether the process is marked.
const SERVER = `
  const http = require("node:http");
  const server = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ headers: req.headers, marked: globalThis[Symbol.for("beacon.peer-address-header")] === true }));
  });
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let port = 0;
let stop: () => void = () => {};

beforeAll(async () => {
  const child = spawn(process.execPath, ["-e", SERVER], {
    env: { ...process.env, NODE_OPTIONS: `--require "${PRELOAD}"` },
    stdio: ["ignore", "pipe", "inherit"],
  });
  stop = () => child.kill();
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  port = Number(line.toString().trim());
});

afterAll(() => stop());

async function seen(headers: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${port}/`, { headers });
  return (await response.json()) as { headers: Record<string, string>; marked: boolean };
}

describe("scripts/peer-address.cjs", () => {
  it("gives every request the socket's peer address and marks the process", async () => {
    const { headers, marked } = await seen({});
    expect(headers["x-beacon-peer-address"]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(marked).toBe(true);
  });

  it("replaces a peer address the client made up, and leaves X-Forwarded-For alone", async () => {
    const { headers } = await seen({ "x-beacon-peer-address": "203.0.113.66", "x-forwarded-for": "198.51.100.1" });
    expect(headers["x-beacon-peer-address"]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(headers["x-forwarded-for"]).toBe("198.51.100.1");
  });
});
