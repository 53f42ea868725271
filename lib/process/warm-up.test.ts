import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { describeWarmUp, SELF_WARM_ROUTES, warmUp, warmUpSelf } from "@/lib/process/warm-up";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A local server that answers like `next dev`: the dashboard redirects a signed-out visitor. */
async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("warmUp", () => {
  it("requests each route once, in order, without following the dashboard's redirect", async () => {
    const seen: string[] = [];
    const base = await serve((request, response) => {
      seen.push(request.url!);
      if (request.url === "/") response.writeHead(307, { location: "/login" }).end();
      else response.end("<html>sign in</html>");
    });
    const result = await warmUp(base, ["/login", "/"], 5_000);
    expect(seen).toEqual(["/login", "/"]);
    expect(result.map(({ path, status }) => [path, status])).toEqual([
      ["/login", 200],
      ["/", 307],
    ]);
  });

  it("reports a route that does not answer in time and goes on to the next", async () => {
    const base = await serve((request, response) => {
      if (request.url === "/slow") return; // never answers
      response.end("ok");
    });
    const result = await warmUp(base, ["/slow", "/login"], 300);
    expect(result.map(({ status }) => status)).toEqual([null, 200]);
    expect(describeWarmUp(result)).toMatch(/^\/slow did not answer in \d+\.\d s, \/login ready in \d+\.\d s$/);
    server!.closeAllConnections();
  });
});

describe("warmUpSelf", () => {
  const port = process.env.PORT;
  afterEach(() => {
    if (port === undefined) delete process.env.PORT;
    else process.env.PORT = port;
  });

  it("waits for the port the server listens on, then asks for the sign-in page and each dashboard once", async () => {
    delete process.env.PORT;
    const seen: string[] = [];
    let asked!: () => void;
    const done = new Promise<void>((resolve) => (asked = resolve));
    const base = await serve((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      // Signed out, as the server's own requests are: the dashboards redirect, the batch refuses.
      if (request.url === "/login") response.end("<html>sign in</html>");
      else if (request.url!.startsWith("/api/")) response.writeHead(401).end();
      else response.writeHead(307, { location: "/login" }).end();
      if (seen.length === SELF_WARM_ROUTES.length) asked();
    });
    warmUpSelf();
    // Its first look (a timer queued before this one) finds no port and looks again later; then
    // the port appears, as Next.js sets it once it listens.
    let seenBeforePort: string[] | undefined;
    setTimeout(() => {
      seenBeforePort = [...seen];
      process.env.PORT = new URL(base).port;
    }, 0);
    await done;
    expect(seenBeforePort).toEqual([]);
    expect(seen).toEqual(["GET /login", "GET /", "GET /analytics/sources", "GET /analytics/costs", "GET /traffic", "GET /api/analytics/batch"]);
  });
});
